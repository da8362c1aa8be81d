import { isDateTime } from './date-time.ts';
import { UUID } from './uuid.ts';

/**
 * The string formats this contract reads more narrowly than ajv-formats (and so Prism) do. The server's
 * validator, the mock's proxy and the conformance suite's Ajv all use these definitions.
 */
export const CONTRACT_FORMATS: Readonly<Record<string, (text: string) => boolean>> = {
  uuid: (text) => UUID.test(text),
  'date-time': isDateTime,
};

/** Whether `text` has the contract's `format`, for the formats above (any other format: undefined). */
export function matchesContractFormat(format: string, text: string): boolean | undefined {
  return Object.hasOwn(CONTRACT_FORMATS, format) ? CONTRACT_FORMATS[format]?.(text) : undefined;
}
