// What changed between two versions of the contract, classified by api-smart-diff, and whether
// info.version moved as semantic versioning asks (a breaking change needs a new major).
import { apiDiff, type Diff } from 'api-smart-diff';
import { ContractDocument, type JsonObject } from '../../lib/contract.ts';

export type ChangeKind = Diff['type'];

export interface Change {
  kind: ChangeKind;
  /** Where in the contract: `GET /api/v1/products`, `webhook product.created`, `components.schemas.Product`. */
  where: string;
  what: string;
}

export interface ContractComparison {
  beforeVersion: string;
  afterVersion: string;
  changes: Change[];
  /** Why the change may not land as it is (undefined when it may). */
  problem: string | undefined;
}

/** Most severe first: the order the report lists them in. */
export const CHANGE_KINDS: ChangeKind[] = ['breaking', 'deprecated', 'unclassified', 'non-breaking', 'annotation'];

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
// semver.org's own pattern, reduced to what the check needs: the major, and that the rest is well formed.
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/** The major of a semantic version, or undefined when `version` is not one. */
export function majorOf(version: string): number | undefined {
  const match = SEMVER.exec(version);
  return match ? Number(match[1]) : undefined;
}

function versionOf(contract: unknown): string {
  const info = typeof contract === 'object' && contract !== null ? (contract as { info?: unknown }).info : undefined;
  const version = typeof info === 'object' && info !== null ? (info as { version?: unknown }).version : undefined;
  return typeof version === 'string' ? version : '';
}

function locate(path: Diff['path']): { where: string; rest: Diff['path'] } {
  const [section, name, method] = path;
  if (section === 'paths' && typeof method === 'string' && HTTP_METHODS.has(method)) {
    return { where: `${method.toUpperCase()} ${String(name)}`, rest: path.slice(3) };
  }
  if (section === 'webhooks' && name !== undefined) return { where: `webhook ${String(name)}`, rest: path.slice(3) };
  if (section === 'components' && name !== undefined && method !== undefined) {
    return { where: `components.${String(name)}.${String(method)}`, rest: path.slice(3) };
  }
  return { where: path.slice(0, 2).map(String).join('.'), rest: path.slice(2) };
}

/**
 * A response header's `required` classified for clients: made required, the server promises more (non-breaking);
 * made optional, a client relying on it breaks (oasdiff's `response-header-became-optional`). api-smart-diff
 * classifies them the other way round, as for a request's parameter.
 */
function responseHeaderRequiredKind(diff: Diff): ChangeKind | undefined {
  const { path } = diff;
  const headers = path.length - 3;
  if (path.at(-1) !== 'required' || path[headers] !== 'headers') return undefined;
  if (headers === 1 ? path[0] !== 'components' : path[headers - 2] !== 'responses') return undefined;
  if (diff.after === true) return 'non-breaking';
  return diff.before === true ? 'breaking' : undefined;
}

/** Prose that only tells a reader something: its new wording changes nothing a client sends or receives. */
const PROSE = new Set(['description', 'summary', 'title']);

/**
 * Prose reworded, as an annotation: api-smart-diff classifies the `description` of a shared component
 * (`components.responses.NotFound`) as breaking, while the same words changed at each operation that uses it are
 * annotations. Only a string replaced by a string: a schema property that happens to be named `description` is an
 * object.
 */
function rewordedProseKind(diff: Diff): ChangeKind | undefined {
  const reworded = diff.action === 'replace' && typeof diff.before === 'string' && typeof diff.after === 'string';
  return reworded && PROSE.has(String(diff.path.at(-1))) ? 'annotation' : undefined;
}

function toChange(diff: Diff): Change {
  const { where, rest } = locate(diff.path);
  const what = diff.description || `[${diff.action}] ${rest.map(String).join('.') || '(whole)'}`;
  return { kind: responseHeaderRequiredKind(diff) ?? rewordedProseKind(diff) ?? diff.type, where, what };
}

/** Keywords that only annotate a schema: beside a `$ref` they add nothing a value must satisfy. */
const ANNOTATIONS = new Set(['default', 'description', 'title', 'examples', 'deprecated', 'readOnly', 'writeOnly']);
const isAnnotation = (keyword: string) => ANNOTATIONS.has(keyword) || keyword.startsWith('x-');
const isNode = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** The local `$ref` of a node that carries only annotations beside it (none at all: `bare`), else undefined. */
function annotatedRef(node: unknown, bare: boolean): string | undefined {
  if (!isNode(node) || typeof node.$ref !== 'string' || !node.$ref.startsWith('#/')) return undefined;
  const beside = Object.keys(node).filter((key) => key !== '$ref');
  return (bare || beside.length > 0) && beside.every(isAnnotation) ? node.$ref : undefined;
}

/** Where (JSON pointers into the document) a `$ref` has annotations beside it. */
function annotatedRefPlaces(node: unknown, at = '', found = new Set<string>()): Set<string> {
  if (annotatedRef(node, false)) found.add(at);
  if (isNode(node) || Array.isArray(node)) {
    for (const [key, value] of Object.entries(node)) annotatedRefPlaces(value, `${at}/${key}`, found);
  }
  return found;
}

/** The contract with the `$ref` at each of `places` written out as the schema it names, its annotations on top. */
function refsWrittenOut(contract: unknown, places: Set<string>): unknown {
  const document = new ContractDocument(isNode(contract) ? (contract as JsonObject) : {});
  const visit = (node: unknown, at: string): unknown => {
    if (Array.isArray(node)) return node.map((item, index) => visit(item, `${at}/${index}`));
    if (!isNode(node)) return node;
    const ref = places.has(at) ? annotatedRef(node, true) : undefined;
    const target = ref === undefined ? undefined : document.pointer(ref);
    const { $ref: _ref, ...beside } = node;
    const written = isNode(target) ? { ...target, ...beside } : node;
    return Object.fromEntries(Object.entries(written).map(([key, value]) => [key, visit(value, `${at}/${key}`)]));
  };
  return visit(contract, '');
}

/**
 * Both contracts with every `$ref` that carries annotations beside it in either (a `default`, a `description`:
 * OpenAPI 3.1 allows them) written out, in both, as the schema it names plus those annotations. api-smart-diff reads
 * such a reference as a new `allOf` and calls every value of the schema it names removed, so a default added beside
 * a `$ref` would fail CI as breaking; written out on both sides it is compared as what it is, a default added.
 */
export function withAnnotatedRefsWrittenOut(before: unknown, after: unknown): [unknown, unknown] {
  const places = annotatedRefPlaces(after, '', annotatedRefPlaces(before));
  return [refsWrittenOut(before, places), refsWrittenOut(after, places)];
}

/** Compares two parsed contracts: every change, and the versioning problem if there is one. */
export function compareContracts(before: unknown, after: unknown): ContractComparison {
  const beforeVersion = versionOf(before);
  const afterVersion = versionOf(after);
  const seen = new Set<string>();
  const changes = apiDiff(...withAnnotatedRefsWrittenOut(before, after))
    .map(toChange)
    .filter((change) => {
      const key = `${change.kind}\0${change.where}\0${change.what}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  return { beforeVersion, afterVersion, changes, problem: versioningProblem(beforeVersion, afterVersion, changes) };
}

function versioningProblem(beforeVersion: string, afterVersion: string, changes: Change[]): string | undefined {
  const beforeMajor = majorOf(beforeVersion);
  const afterMajor = majorOf(afterVersion);
  if (afterMajor === undefined) {
    return `info.version "${afterVersion}" is not a semantic version (MAJOR.MINOR.PATCH): fix it in openapi.yaml`;
  }
  // A base from before versioning started may carry anything: only the new version is held to semver then.
  if (beforeMajor === undefined) return undefined;
  if (afterMajor < beforeMajor) {
    return `info.version went back from ${beforeVersion} to ${afterVersion}: a version only moves forward`;
  }
  const breaking = changes.filter((change) => change.kind === 'breaking').length;
  if (breaking > 0 && afterMajor === beforeMajor) {
    return (
      `${breaking} breaking change${breaking === 1 ? '' : 's'} but info.version's major did not move ` +
      `(${beforeVersion} → ${afterVersion}): make the change compatible, or set info.version to ` +
      `${beforeMajor + 1}.0.0 and say what breaks in CHANGELOG.md`
    );
  }
  return undefined;
}

/** The report as the CLI prints it: one group per kind, most severe first. */
export function formatComparison(comparison: ContractComparison, labels: { before: string; after: string }): string {
  const { beforeVersion, afterVersion, changes, problem } = comparison;
  const lines = [`Contract: ${labels.before} (${beforeVersion || 'no version'}) → ${labels.after} (${afterVersion})`];
  if (changes.length === 0) lines.push('No changes.');
  for (const kind of CHANGE_KINDS) {
    const ofKind = changes.filter((change) => change.kind === kind);
    if (ofKind.length === 0) continue;
    lines.push('', `${kind === 'breaking' ? 'BREAKING' : kind} (${ofKind.length}):`);
    for (const change of ofKind) lines.push(`  - ${change.where}: ${change.what}`);
  }
  lines.push('', problem ? `FAIL: ${problem}` : 'OK: info.version agrees with the changes.');
  return `${lines.join('\n')}\n`;
}
