/**
 * A request target in origin form: an absolute-form target (`http://host/api/v1/products?limit=1`, as a client
 * configured with a proxy sends it; RFC 9112 › 3.2.2) without its scheme and authority, the path and query left
 * exactly as sent. Any other target is returned as it is.
 */
export function originForm(target: string): string {
  const absolute = /^https?:\/\/[^/?#]*/i.exec(target);
  if (!absolute) return target;
  const rest = target.slice(absolute[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}
