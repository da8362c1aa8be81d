// A detail names a field by a dotted path (`steps.0.data.message`; `''` is the body itself). Shared by the rules that
// judge a detail by the fields that hold it (null-alternatives.ts, discriminated-branches.ts).

/** The path of `name` inside the field at `path`. */
export const childPath = (path: string, name: string): string => (path === '' ? name : `${path}.${name}`);

/** The fields that hold the field at `path`, outermost first, it included: `''`, `steps`, `steps.0`, …, `path`. */
export function holdingPaths(path: string): string[] {
  const holding = [''];
  if (path === '') return holding;
  for (let end = path.indexOf('.'); end >= 0; end = path.indexOf('.', end + 1)) holding.push(path.slice(0, end));
  holding.push(path);
  return holding;
}
