// Which operation a request is for, and whether its credentials are of the form the operation's security
// scheme asks for: present, and where the scheme states a form (a bearer token's `bearerFormat`, e.g.
// `sf_live_<43 base64url characters>`; an API key's `x-key-format`), of that form. Whether the key exists is state: only the server can tell.
import type http from 'node:http';
import { bearerFormatPattern, type ContractDocument, credentialFormat, type Operation } from '../../lib/contract.ts';

export type FindOperation = (method: string, pathname: string) => Operation | undefined;

/**
 * A router over the contract's paths as written (letter case, no trailing `/`: the server's routing): the path
 * first, a literal segment winning over a template (`/validate` before `/{id}`, whatever the method), then the
 * method among that path's operations.
 */
export function operationRouter(contract: ContractDocument): FindOperation {
  const byPath = new Map<string, Operation[]>();
  for (const operation of contract.listOperations()) {
    byPath.set(operation.path, [...(byPath.get(operation.path) ?? []), operation]);
  }
  const paths = [...byPath].map(([template, operations]) => {
    const source = template
      .split(/(\{[^}]+\})/)
      .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
      .join('');
    return { operations, pattern: new RegExp(`^${source}$`), templates: (template.match(/\{/g) ?? []).length };
  });
  paths.sort((a, b) => a.templates - b.templates);
  return (method, pathname) =>
    paths
      .find((path) => path.pattern.test(pathname))
      ?.operations.find((operation) => operation.method === method.toLowerCase());
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
