import { isDateTime } from './date-time.ts';
import { UUID } from './uuid.ts';

/**
 * The string formats this contract reads more narrowly than ajv-formats (and so Prism) do. The server's
 * validator, the mock's proxy and the conformance suite's Ajv all use these definitions.
 */
export const CONTRACT_FORMATS = { uuid: UUID, 'date-time': isDateTime } as const;

/** Whether `text` has the contract's `format`, for the formats above (any other format: undefined). */
export function matchesContractFormat(format: string, text: string): boolean | undefined {
  if (format === 'uuid') return CONTRACT_FORMATS.uuid.test(text);
  if (format === 'date-time') return CONTRACT_FORMATS['date-time'](text);
  return undefined;
}
