import { holdingPaths } from './dotted-paths.ts';

/**
 * A validator's error as `withoutNullAlternatives` reads it: where it is (dotted), its JSON Schema keyword, and
 * whether it is the refusal of a `{ type: "null" }` branch of a `oneOf` or `anyOf`.
 */
export interface BranchError {
  path: string;
  keyword: string;
  nullAlternative: boolean;
}

const isAlternatives = (keyword: string) => keyword === 'oneOf' || keyword === 'anyOf';

/**
 * A field the contract makes nullable with `oneOf: [<schema>, { type: "null" }]` that fails is named once, for what
 * is wrong with it: a date-time that is no date-time is refused for its format, not also for not being null nor for
 * matching no branch, which says nothing the first does not. Where the failing branch says nothing (no error at or
 * below the field but those), the errors stay as they are. The server (its validator's errors) and the mock
 * (Prism's) apply the same rule, so both name the same details.
 */
export function withoutNullAlternatives<T extends BranchError>(errors: T[]): T[] {
  const noise = (error: T) => error.nullAlternative || isAlternatives(error.keyword);
  // A set, not a search per error: a body of thousands of failing items has thousands of each.
  const saidWithin = new Set(errors.filter((error) => !noise(error)).flatMap((error) => holdingPaths(error.path)));
  return errors.filter((error) => !noise(error) || !saidWithin.has(error.path));
}
