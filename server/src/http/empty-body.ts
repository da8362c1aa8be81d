import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { UTF8_BOM } from '../../../lib/content-type.ts';

/** Requests that declared a JSON body and sent no bytes of it (`Content-Length: 0`), or only a byte order mark. */
const emptyBodies = new WeakSet<IncomingMessage>();

/**
 * The JSON body parser's `verify`: notes a body of no bytes, or of only the byte order mark its decoding skips, which
 * the parser would read as `{}`.
 */
export function noteEmptyBody(req: IncomingMessage, bytes: Buffer): void {
  if (bytes.length === 0 || bytes.equals(UTF8_BOM)) emptyBodies.add(req);
}

/**
 * A body of no bytes is no body. The parser reads it as `{}`, so an operation whose body is required answered
 * with the fields `{}` lacks instead of naming the missing body, as the mock (Prism) does and as a request without
 * `Content-Length` already was.
 */
export const emptyBodyIsNone: RequestHandler = (req, _res, next) => {
  if (emptyBodies.has(req)) req.body = undefined;
  next();
};
