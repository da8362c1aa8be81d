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

/**
 * 400 VALIDATION_ERROR, before the contract validator and the handlers, for input the store could not keep as
 * sent: NUL characters (PostgreSQL text cannot hold them), lone surrogates (not Unicode; they would read back
 * as U+FFFD) and bodies nested deeper than `MAX_BODY_DEPTH` (which would exhaust the validator's stack).
 */
export const requireStorableInput: RequestHandler = (req, _res, next) => {
  const problem = findProblem(req.query, [], 'query') ?? findProblem(req.body, [], 'body');
  next(problem ? validationError([problem]) : undefined);
};
