import { contractLanguage, shippedContract } from './contract.ts';

/**
 * Values for the `{name}` placeholders of a text the contract words (a reason, a case's message); a list reads as
 * alternatives in the contract's language ("CPF ou CNPJ").
 */
export type WordedValues = Readonly<Record<string, string | number | readonly string[]>>;

/**
 * A list as alternatives in the language the contract words its texts in (`info` › `x-language`), made at start-up
 * so that a missing or malformed language stops it, as every other value the contract gives.
 */
const ALTERNATIVES = new Intl.ListFormat(contractLanguage(shippedContract()), { type: 'disjunction' });

/** `template` with each `{name}` replaced by `values[name]`; a placeholder left without a value is a defect here. */
export function worded(template: string, values: WordedValues, what: string): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`${what} names {${name}}, which was not given`);
    return typeof value === 'object' ? ALTERNATIVES.format(value) : String(value);
  });
}

/**
 * The entry `key` of a table of texts the contract states, worded with `values`; a key the table lacks (`what`
 * names the entry in the error, `reason <id>`) is a defect here, as is a placeholder left without a value.
 */
export function wordedEntry(
  table: Readonly<Record<string, string>>,
  key: string,
  values: WordedValues,
  what: string,
): string {
  const template = Object.hasOwn(table, key) ? table[key] : undefined;
  if (template === undefined) throw new Error(`the contract states no ${what}`);
  return worded(template, values, `the contract's ${what}`);
}

/** The texts `template` words, as a pattern: each `{name}` any text but none (the contract's examples are held to it). */
export const wordingOf = (template: string): RegExp =>
  new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '.+')}$`, 'u');
