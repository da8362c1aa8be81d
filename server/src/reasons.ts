import { contractValue, isTexts } from './contract.ts';
import { type WordedValues, worded } from './worded.ts';

/**
 * A reason of an error detail as the contract words it (`ErrorDetail` › `reason` › `x-reasons`), its `{name}`
 * placeholders filled. Only `reason` makes one, so a handler cannot word a reason of its own.
 */
export type Reason = string & { readonly stated: unique symbol };

const REASONS = contractValue(
  '#/components/schemas/ErrorDetail/properties/reason/x-reasons',
  isTexts,
  'table of texts',
);

/** The contract's reason `id` with `values` in its placeholders (reasons.test.ts: every id used is stated). */
export function reason(id: string, values: WordedValues = {}): Reason {
  const template = Object.hasOwn(REASONS, id) ? REASONS[id] : undefined;
  if (template === undefined) throw new Error(`the contract states no reason ${id}`);
  return worded(template, values, `the contract's reason ${id}`) as Reason;
}
