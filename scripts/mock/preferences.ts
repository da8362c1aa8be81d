// The `Prefer` preferences the mock honours, as Prism reads them: `code=NNN`, a status the operation documents, and
// `example=NAME`, a named example of one of its responses. Any other preference is ignored (RFC 7240): Prism's
// `dynamic=true` answered with bodies it made up, outside the contract. One the operation cannot honour is a 400
// naming the header, in the contract's envelope, where Prism answers its own 404 problem.
import { type ContractDocument, isObject, type Operation } from '../../lib/contract.ts';
import { reason } from '../../lib/reasons.ts';
import type { Detail } from './violations.ts';

const HONOURED = /^\s*(code|example)\s*=\s*"?([^",]*?)"?\s*$/i;

/** A `Prefer` header as Node has it (one line, or each of several). */
type PreferHeader = string | string[] | undefined;

const preferencesOf = (prefer: PreferHeader) =>
  [prefer ?? []]
    .flat()
    .join(',')
    .split(',')
    .filter((token) => token.trim());

/** The preferences of a `Prefer` header the mock honours, as one header; undefined when there are none. */
export function honouredPreferences(prefer: PreferHeader): string | undefined {
  const kept = preferencesOf(prefer).filter((token) => HONOURED.test(token));
  return kept.length > 0 ? kept.map((token) => token.trim()).join(', ') : undefined;
}

/** The detail refusing the first honoured preference `operation` has no documented answer for. */
export function preferenceProblem(
  contract: ContractDocument,
  operation: Operation,
  prefer: PreferHeader,
): Detail | undefined {
  const responses = isObject(operation.raw.responses) ? operation.raw.responses : {};
  const answerable = (kind: string, value: string) =>
    kind === 'code'
      ? Object.hasOwn(responses, value)
      : Object.values(responses).some((response) => contract.examples(response).some((e) => e.name === value));
  for (const token of preferencesOf(prefer)) {
    const [, kind = '', value = ''] = HONOURED.exec(token) ?? [];
    if (kind && !answerable(kind.toLowerCase(), value)) {
      return {
        location: 'header',
        path: 'prefer',
        reason: reason('mock-prefer-unknown', { preference: token.trim() }),
      };
    }
  }
  return undefined;
}
