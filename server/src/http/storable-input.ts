import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import type { Request, RequestHandler } from 'express';
import { charsetOf } from '../../../lib/content-type.ts';
import { MALFORMED_ESCAPE, malformedQueryParameter } from '../../../lib/percent-escapes.ts';
import { BODY_NOT_UTF8, unstorableText } from '../../../lib/storable-text.ts';
import { detail, validationError } from '../errors.ts';
import { malformedPathParameter } from './operation-lookup.ts';

/** The reason of a path parameter whose percent-escapes do not decode. */

/** Requests whose JSON body, declared UTF-8 (or of no charset), was not valid UTF-8. */
const bodiesNotUtf8 = new WeakSet<IncomingMessage>();

/**
 * Before the JSON body parser reads a body: a JSON body labelled with another charset than UTF-8 is 415, as the
 * parser answers `latin1` (`charset.unsupported`); the parser itself would decode `utf-16` and `utf-32`.
 */
export function unsupportedCharset(req: Request): Error | undefined {
  const charset = req.is('application/json') ? charsetOf(req.get('content-type') ?? '') : undefined;
  if (charset === undefined || charset === 'utf-8') return undefined;
  return Object.assign(new Error(`unsupported charset "${charset.toUpperCase()}"`), { type: 'charset.unsupported' });
}

/**
 * The JSON body parser's `verify`: notes a body whose bytes are not valid UTF-8 before the parser decodes it,
 * which would put U+FFFD in place of each bad sequence, silently.
 */
export function noteBodyNotUtf8(req: IncomingMessage, _res: unknown, bytes: Buffer, charset: string): void {
  if (charset.toLowerCase() === 'utf-8' && !isUtf8(bytes)) bodiesNotUtf8.add(req);
}

/**
 * 400 VALIDATION_ERROR, before the contract validator and the handlers, for input the store could not keep as
 * sent: a path or query parameter whose percent-escapes do not decode (`malformedPathParameter`, lib/percent-escapes.ts), a body that is not valid
 * UTF-8 (`noteBodyNotUtf8`), NUL characters (PostgreSQL text cannot hold them), lone surrogates (not Unicode; they
 * would read back as U+FFFD) and bodies nested deeper than 32 levels (which would exhaust the validator's stack):
 * lib/storable-text.ts.
 */
export const requireStorableInput: RequestHandler = (req, _res, next) => {
  const parameter = malformedPathParameter(req);
  if (parameter !== undefined) return next(validationError([detail('path', parameter, MALFORMED_ESCAPE)]));
  const query = req.url.indexOf('?');
  const inQuery = query < 0 ? undefined : malformedQueryParameter(req.url.slice(query + 1));
  if (inQuery !== undefined) return next(validationError([detail('query', inQuery, MALFORMED_ESCAPE)]));
  if (bodiesNotUtf8.has(req)) return next(validationError([BODY_NOT_UTF8]));
  const problem = unstorableText(req.query, 'query') ?? unstorableText(req.body, 'body');
  next(problem ? validationError([problem]) : undefined);
};
