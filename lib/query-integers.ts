// How an integer is written in a query string, by the contract's "Query strings" rule: decimal digits, a minus
// before them at most. JSON Schema validators coerce whatever JavaScript reads as a number (`0x10`, `1e1`,
// ` 10`, `Infinity`), and take digits past what a number holds as Infinity, which passes their bounds (ajv checks
// `maximum` on finite numbers only), so the server and the mock check the text before validation. Shared so both
// agree.
import { type ContractDocument, isObject, type JsonObject, type Parameter } from './contract.ts';
import { validationReason } from './validation-reasons.ts';

const DECIMAL_INTEGER = /^-?[0-9]+$/;

/** The names of the query parameters, among an operation's, whose schema is an integer. */
export function queryIntegerNames(contract: ContractDocument, parameters: readonly Parameter[]): string[] {
  return parameters
    .filter((parameter) => {
      const schema = contract.deref(parameter.schema);
      return parameter.in === 'query' && isObject(schema) && schema.type === 'integer';
    })
    .map((parameter) => parameter.name);
}

export interface QueryDetail extends JsonObject {
  location: 'query';
  path: string;
  reason: string;
}

/** Decimal digits a number can hold: past about 1.8e308 (309 digits) they read as Infinity, which validators take. */
const isDecimalInteger = (text: string): boolean => DECIMAL_INTEGER.test(text) && Number.isFinite(Number(text));

/**
 * A detail for each of `names` whose value is one text not written in decimal digits, or in more than a number can
 * hold (a repeated parameter is the validator's to refuse: it is not an integer either).
 */
export function integersNotDecimal(names: readonly string[], queryValue: (name: string) => unknown): QueryDetail[] {
  return names.flatMap((name) => {
    const value = queryValue(name);
    return typeof value === 'string' && !isDecimalInteger(value)
      ? [{ location: 'query' as const, path: name, reason: validationReason('type', 'must be integer') }]
      : [];
  });
}
