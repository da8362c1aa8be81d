// The Portuguese reason of an `error.details` entry for each JSON Schema keyword that failed, as the contract words
// it (`ErrorDetail` › `reason` › `x-keyword-reasons`). Shared so the mock words a violation as a server would.
import { keywordReason, reason } from './reasons.ts';

/**
 * A reason for a failed keyword (`keyword-unknown` for a keyword the contract gives none), with the validator's own
 * message in parentheses when there is one.
 */
export function validationReason(keyword: string, message?: string): string {
  const stated = keywordReason(keyword) ?? reason('keyword-unknown');
  return message ? `${stated} (${message})` : stated;
}

/** A property that is missing, worded as the server's validator (ajv) words it. */
export function missingReason(name: string): string {
  return validationReason('required', `must have required property '${name}'`);
}

/** Text that is not of a format of the contract, worded as the server's validator (ajv) words it. */
export function formatReason(format: string): string {
  return validationReason('format', `must match format "${format}"`);
}

/** The reason for a body that is not JSON: the parser's own account of where it stopped (`JSON.parse`'s message). */
export function malformedJsonReason(parserMessage: string): string {
  return reason('json-malformed', { parser: parserMessage });
}
