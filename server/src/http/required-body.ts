import type { Request, RequestHandler } from 'express';
import { missingReason } from '../../../lib/validation-reasons.ts';
import { detail, type ErrorDetail, validationError } from '../errors.ts';

/**
 * A required body that was not sent, named as the validator names it where it applies the rule. Worded in the
 * validator's words, as the mock words it too.
 */
export const MISSING_BODY: ErrorDetail = detail('body', '', missingReason('body'));

/**
 * Whether the operation's `requestBody.required` is broken. express-openapi-validator reads the body schema's own
 * `required` list in its place, so an operation whose body has no required property (every update) took a
 * request without a body as valid, and its handler failed on it (500).
 */
export function missingRequiredBody(req: Request): boolean {
  return req.storefront.operation?.bodyRequired === true && req.body === undefined;
}

/** After the validator: 400 naming the body when a required one is missing and nothing else was wrong. */
export const requireDeclaredBody: RequestHandler = (req, _res, next) => {
  next(missingRequiredBody(req) ? validationError([MISSING_BODY]) : undefined);
};
