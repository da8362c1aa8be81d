import { type ContractDocument, isTexts, shippedContract } from './contract.ts';
import { type WordedValues, wordedEntry } from './worded.ts';

/**
 * A reason of an error detail as the contract words it (`ErrorDetail` › `reason` › `x-reasons`), its `{name}`
 * placeholders filled. Only `reason` makes one, so the server and the mock cannot word a reason of their own.
 */
export type Reason = string & { readonly stated: unique symbol };

const REASON = '#/components/schemas/ErrorDetail/properties/reason';

/** A table of texts the contract states under `ErrorDetail` › `reason`; none, or not all texts, stops start-up. */
function texts(contract: ContractDocument, extension: string): Readonly<Record<string, string>> {
  const table = contract.pointer(`${REASON}/${extension}`);
  if (!isTexts(table)) throw new Error(`the contract states no table of texts at ${REASON}/${extension}`);
  return table;
}

const REASONS = texts(shippedContract(), 'x-reasons');
/** The reason for each JSON Schema keyword that fails: `x-keyword-reasons`. */
const KEYWORD_REASONS = texts(shippedContract(), 'x-keyword-reasons');

/** The contract's reason `id` with `values` in its placeholders (reasons.test.ts: every id used is stated). */
export const reason = (id: string, values: WordedValues = {}): Reason =>
  wordedEntry(REASONS, id, values, `reason ${id}`) as Reason;

/** The contract's reason for a failed JSON Schema keyword, if it lists the keyword. */
export const keywordReason = (keyword: string): Reason | undefined =>
  (Object.hasOwn(KEYWORD_REASONS, keyword) ? KEYWORD_REASONS[keyword] : undefined) as Reason | undefined;
