import { fullFormats } from 'ajv-formats/dist/formats.js';

const rfc3339 = fullFormats['date-time'] as { validate: (text: string) => boolean };

/**
 * What `format: date-time` accepts in this contract (info: Query strings): an RFC 3339 date-time on a day its
 * month has (`2026-02-30` is refused; ajv-formats' fast mode takes it, and JavaScript reads it as 2 March) that
 * names one instant JavaScript can read: a leap second (`23:59:60Z`) or an offset without minutes (`+05`),
 * which RFC 3339's grammar allows, cannot be compared or stored as an instant here, so they are refused too.
 */
export function isDateTime(text: string): boolean {
  return rfc3339.validate(text) && Number.isFinite(Date.parse(text));
}
