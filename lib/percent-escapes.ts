// Percent-escapes that do not decode (RFC 3986): `%zz`, a lone `%`, or bytes that are not UTF-8 (`%ED%A0%80`, a
// surrogate). The server and the mock refuse them in a path or a query alike, rather than read them as text.
import { reason } from './reasons.ts';

/** The reason a detail gives for a parameter whose percent-escapes do not decode. */
export const MALFORMED_ESCAPE = reason('percent-escape-malformed');

/** Whether `text` decodes as percent-encoded UTF-8. */
export function decodes(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The first parameter of a query string (`limit=1&search=%zz`, without the `?`) whose name or value does not
 * decode: its name (decoded, `+` as a space, when the name itself decodes), or undefined when every one decodes.
 */
export function malformedQueryParameter(query: string): string | undefined {
  for (const pair of query.split('&')) {
    const separator = pair.indexOf('=');
    const name = separator < 0 ? pair : pair.slice(0, separator);
    const value = separator < 0 ? '' : pair.slice(separator + 1);
    if (decodes(name) && decodes(value)) continue;
    return decodes(name) ? decodeURIComponent(name.replaceAll('+', ' ')) : name;
  }
  return undefined;
}
