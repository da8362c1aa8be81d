import type { RequestHandler } from 'express';
import { integersNotDecimal } from '../../../lib/query-integers.ts';
import { validationError } from '../errors.ts';

/**
 * 400 VALIDATION_ERROR for a query integer not written in decimal digits (`limit=0x10`, `page=Infinity`), before
 * the contract validator, whose type coercion would read it as a number. Runs after authentication, as every
 * validation does.
 */
export const requireDecimalQueryIntegers: RequestHandler = (req, _res, next) => {
  const names = req.storefront.operation?.queryIntegers ?? [];
  if (names.length === 0) return next();
  const query = req.query as Record<string, unknown>;
  const problems = integersNotDecimal(names, (name) => query[name]);
  next(problems.length > 0 ? validationError(problems) : undefined);
};
