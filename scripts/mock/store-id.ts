// The store a request names, checked as the server checks it: right after the credentials, before anything else
// of the request is read, and answered alone (the contract's order of checks: key, rate limit, `X-Store-Id`,
// store, scope, then the request itself). Whether the key may use that store is state: only the server can tell.
import type http from 'node:http';
import { type ContractDocument, isObject, type Operation } from '../../lib/contract.ts';
import { matchesContractFormat } from '../../lib/formats.ts';
import { formatReason, missingReason } from '../../lib/validation-reasons.ts';
import type { Detail } from './violations.ts';

const STORE_ID = 'x-store-id';

/** The detail refusing the request's `X-Store-Id`, or undefined when the operation has none or it is well-formed. */
export function storeIdProblem(
  contract: ContractDocument,
  operation: Operation,
  headers: http.IncomingHttpHeaders,
): Detail | undefined {
  const parameter = operation.parameters.find((p) => p.in === 'header' && p.name.toLowerCase() === STORE_ID);
  if (!parameter) return undefined;
  const given = headers[STORE_ID];
  // An empty header is no header, as on the server.
  if (!given) {
    if (!parameter.required) return undefined;
    return { location: 'header', path: STORE_ID, reason: missingReason(STORE_ID) };
  }
  const schema = contract.deref(parameter.schema);
  const format = isObject(schema) && typeof schema.format === 'string' ? schema.format : '';
  if (typeof given === 'string' && matchesContractFormat(format, given) !== false) return undefined;
  return { location: 'header', path: STORE_ID, reason: formatReason(format) };
}
