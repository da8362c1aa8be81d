// The `Prefer` preferences the mock honours, as Prism reads them: `code=NNN`, a status the operation documents, and
// `example=NAME`, a named example of one of its responses (of the `code` when both are given; alone, the mock adds
// the code of the response that holds it, as Prism looks in one response only). Any other preference is ignored
// (RFC 7240), and so are a preference's parameters (`code=401;q=1`): Prism's `dynamic=true` answered with bodies it
// made up, outside the contract. One the operation cannot honour is a 400 naming the header, in the contract's
// envelope, where Prism answers its own 404 or 500 problem.
import { type ContractDocument, isObject, type Operation } from '../../lib/contract.ts';
import { reason } from '../../lib/reasons.ts';
import type { Detail } from './violations.ts';

const HONOURED = /^\s*(code|example)\s*=\s*"?([^";,]*)"?\s*(?:;.*)?$/i;

/** A `Prefer` header as Node has it (one line, or each of several). */
type PreferHeader = string | string[] | undefined;

/** What Prism is asked for (no `Prefer` when undefined), or the detail refusing the preference. */
export type Preference = { prefer: string | undefined } | { refused: Detail };

/** The honoured preferences of a header, the last of each kind winning: `{ code: '401', example: 'ApiKeyRequired' }`. */
function honoured(prefer: PreferHeader): { code?: string; example?: string } {
  const chosen: { code?: string; example?: string } = {};
  for (const token of [prefer ?? []].flat().join(',').split(',')) {
    const [, kind, value = ''] = HONOURED.exec(token) ?? [];
    if (kind) chosen[kind.toLowerCase() as 'code' | 'example'] = value.trim();
  }
  return chosen;
}

/** Preferences as a `Prefer` header says them: `code=401, example=ApiKeyRequired`; empty for none. */
const preferenceText = (code: string | undefined, example: string | undefined): string =>
  [code === undefined ? '' : `code=${code}`, example === undefined ? '' : `example=${example}`]
    .filter(Boolean)
    .join(', ');

/** What to ask Prism for the preferences of `prefer` on `operation`, or why none of its responses meets them. */
export function preferenceFor(contract: ContractDocument, operation: Operation, prefer: PreferHeader): Preference {
  const responses = isObject(operation.raw.responses) ? operation.raw.responses : {};
  const { code, example } = honoured(prefer);
  const holders =
    example === undefined
      ? []
      : Object.keys(responses).filter((status) => contract.examples(responses[status]).some((e) => e.name === example));
  const status = code ?? holders[0];
  const answerable =
    (status === undefined || Object.hasOwn(responses, status)) &&
    (example === undefined || holders.includes(status ?? ''));
  if (!answerable) {
    const preference = preferenceText(code, example);
    return { refused: { location: 'header', path: 'prefer', reason: reason('mock-prefer-unknown', { preference }) } };
  }
  return { prefer: preferenceText(status, example) || undefined };
}
