// Which operation a request is for, and whether its credentials are of the form the operation's security
// scheme asks for: present, and where the scheme states a form (a bearer token's `bearerFormat`, e.g.
// `sf_live_<43 base64url characters>`; an API key's `x-key-format`), of that form. Whether the key exists is state: only the server can tell.
import type http from 'node:http';
import { bearerFormatPattern, type ContractDocument, credentialFormat, type Operation } from '../../lib/contract.ts';

export type FindOperation = (method: string, pathname: string) => Operation | undefined;

/**
 * A router over the contract's paths as written (letter case, no trailing `/`: the server's routing); a literal
 * segment wins over a template (`/search` before `/{id}`).
 */
export function operationRouter(contract: ContractDocument): FindOperation {
  const routes = contract
    .listOperations()
    .map((operation) => {
      const source = operation.path
        .split(/(\{[^}]+\})/)
        .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
        .join('');
      return { operation, pattern: new RegExp(`^${source}$`), templates: (operation.path.match(/\{/g) ?? []).length };
    })
    .sort((a, b) => a.templates - b.templates);
  return (method, pathname) =>
    routes.find((route) => route.operation.method === method.toLowerCase() && route.pattern.test(pathname))?.operation;
}

/** Why the request's credentials cannot be accepted for the operation, or undefined when their form is right. */
export function credentialProblem(
  contract: ContractDocument,
  operation: Operation,
  headers: http.IncomingHttpHeaders,
): 'missing' | 'malformed' | undefined {
  const scheme = operation.scheme ? contract.securityScheme(operation.scheme) : undefined;
  if (!scheme) return undefined;
  const format = credentialFormat(scheme);
  const ofForm = (credential: string) => format === undefined || bearerFormatPattern(format).test(credential);
  if (scheme.type === 'apiKey' && scheme.in === 'header' && typeof scheme.name === 'string') {
    const key = headers[scheme.name.toLowerCase()];
    if (!key) return 'missing';
    return typeof key === 'string' && ofForm(key) ? undefined : 'malformed';
  }
  if (scheme.type !== 'http' || String(scheme.scheme).toLowerCase() !== 'bearer') return undefined;
  const authorization = headers.authorization;
  if (!authorization) return 'missing';
  // RFC 9110: the auth scheme is case-insensitive
  const token = /^bearer +(\S+)$/i.exec(authorization)?.[1];
  if (!token) return 'malformed';
  return ofForm(token) ? undefined : 'malformed';
}
