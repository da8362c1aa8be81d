import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { detail, type ErrorDetail, validationError } from '../errors.ts';

/** The contract's nesting limit for a JSON body (see "Text and nesting" in openapi.yaml). */
export const MAX_BODY_DEPTH = 32;

const NUL = '\u0000';
/** A UTF-16 surrogate not part of a pair: with the `u` flag only a lone one is seen as a surrogate code point. */
const LONE_SURROGATE = /\p{Surrogate}/u;

function textProblem(text: string): string | undefined {
  if (text.includes(NUL)) return 'contém o caractere NUL (U+0000), que não pode ser armazenado';
  if (LONE_SURROGATE.test(text)) return 'contém um substituto UTF-16 isolado (texto Unicode inválido)';
  return undefined;
}

/**
 * The first string or key under `value` that no text column can hold faithfully, or the first place nested
 * deeper than `MAX_BODY_DEPTH`. The walk stops descending at the limit, so a hostile depth costs no more stack.
 */
function findProblem(value: unknown, path: string[], location: ErrorDetail['location']): ErrorDetail | undefined {
  if (typeof value === 'string') {
    const problem = textProblem(value);
    return problem ? detail(location, path.join('.'), problem) : undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  if (path.length >= MAX_BODY_DEPTH) {
    return detail(location, path[0] ?? '', `aninhamento acima de ${MAX_BODY_DEPTH} níveis`);
  }
  for (const [key, item] of Object.entries(value)) {
    const keyProblem = textProblem(key);
    // The key itself cannot be echoed in the path (it is what cannot be stored): name its parent.
    if (keyProblem) return detail(location, path.join('.'), `um nome de campo ${keyProblem}`);
    const found = findProblem(item, [...path, key], location);
    if (found) return found;
  }
  return undefined;
}

/** Requests whose JSON body, declared UTF-8 (or of no charset), was not valid UTF-8. */
const bodiesNotUtf8 = new WeakSet<IncomingMessage>();

/**
 * The JSON body parser's `verify`: notes a body whose bytes are not valid UTF-8 before the parser decodes it,
 * which would put U+FFFD in place of each bad sequence, silently.
 */
export function noteBodyNotUtf8(req: IncomingMessage, _res: unknown, bytes: Buffer, charset: string): void {
  if (charset.toLowerCase() === 'utf-8' && !isUtf8(bytes)) bodiesNotUtf8.add(req);
}

/**
 * 400 VALIDATION_ERROR, before the contract validator and the handlers, for input the store could not keep as
 * sent: a body that is not valid UTF-8 (`noteBodyNotUtf8`), NUL characters (PostgreSQL text cannot hold them),
 * lone surrogates (not Unicode; they would read back as U+FFFD) and bodies nested deeper than `MAX_BODY_DEPTH`
 * (which would exhaust the validator's stack).
 */
export const requireStorableInput: RequestHandler = (req, _res, next) => {
  if (bodiesNotUtf8.has(req)) return next(validationError([detail('body', '', 'o corpo não é texto UTF-8 válido')]));
  const problem = findProblem(req.query, [], 'query') ?? findProblem(req.body, [], 'body');
  next(problem ? validationError([problem]) : undefined);
};
