import type { ErrorRequestHandler, Request, RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { components } from '../../../generated/openapi.ts';
import { selectedBranches } from '../../../lib/discriminated-branches.ts';
import { pointerSegmentName } from '../../../lib/json-pointer.ts';
import { malformedJsonReason, validationReason } from '../../../lib/validation-reasons.ts';
import { servedContract } from '../contract.ts';
import {
  ApiError,
  caseMessage,
  detail,
  type ErrorCode,
  type ErrorDetail,
  errorBody,
  validationError,
} from '../errors.ts';
import { RateLimitedError } from './authenticate.ts';
import { MISSING_BODY, missingRequiredBody } from './required-body.ts';

type RateLimitBody = components['schemas']['RateLimitResponse'];

/** An error as express-openapi-validator raises it. */
interface ValidatorError {
  status: number;
  errors?: { path?: string; message?: string; errorCode?: string }[];
  /** Set on 405: `Allow` lists the methods the path has. */
  headers?: Record<string, string>;
}

/** An error as Express's body parser raises it. */
interface ParserError {
  type: string;
  status?: number;
  /** For a body that is not JSON, JSON.parse's own message. */
  message?: string;
}

const LOCATIONS: Record<string, ErrorDetail['location']> = {
  body: 'body',
  query: 'query',
  params: 'path',
  path: 'path',
  headers: 'header',
  header: 'header',
};

/**
 * The validator's own keywords by the JSON Schema keyword they check: `x-eov-type` is the type check of a value it
 * converts (a `date-time`), a `type` like any other.
 */
const VALIDATOR_KEYWORDS: Record<string, string> = { 'x-eov-type': 'type' };

/**
 * The segments of a validator's path: a JSON pointer (`/body/logistics/weight`, `/query/limit`; `~1` a `/` and `~0`
 * a `~` inside a name, such as a webhook header's), or dotted (`.body.name`).
 */
function pathSegments(path: string): string[] {
  if (!path.startsWith('/')) return path.split('.').filter(Boolean);
  return path.split('/').filter(Boolean).map(pointerSegmentName);
}

function toDetail(item: NonNullable<ValidatorError['errors']>[number]): ErrorDetail {
  // The first segment is where the field lives.
  const segments = pathSegments(item.path ?? '');
  const location = LOCATIONS[segments[0] ?? ''] ?? 'body';
  const reported = (item.errorCode ?? '').replace(/\.openapi\.(validation|requestValidation)$/, '');
  const keyword = VALIDATOR_KEYWORDS[reported] ?? reported;
  const path = segments.slice(1).join('.');
  return detail(location, location === 'header' ? path.toLowerCase() : path, validationReason(keyword, item.message));
}

/** A discriminated `oneOf` of a body (an automation step) judged by the branch its tag selects alone. */
const inSelectedBranches = selectedBranches(servedContract);

/** The validator's details, and last the missing body it does not name where the body has no required property. */
function withMissingBody(details: ErrorDetail[], req: Request): ErrorDetail[] {
  const named = details.some((item) => item.location === 'body' && item.path === '');
  return missingRequiredBody(req) && !named ? [...details, MISSING_BODY] : details;
}

function classify(error: unknown, req: Request): ApiError | undefined {
  if (error instanceof ApiError) return error;
  const parser = error as ParserError;
  if (typeof parser?.type === 'string') {
    if (parser.type === 'entity.parse.failed') {
      return validationError([detail('body', '', malformedJsonReason(parser.message ?? ''))]);
    }
    if (parser.type === 'entity.too.large') return new ApiError('PAYLOAD_TOO_LARGE');
    if (parser.type === 'encoding.unsupported' || parser.type === 'charset.unsupported') {
      return new ApiError('UNSUPPORTED_MEDIA_TYPE');
    }
  }
  const validator = error as ValidatorError;
  const byStatus: Partial<Record<number, ErrorCode>> = {
    400: 'VALIDATION_ERROR',
    404: 'ROUTE_NOT_FOUND',
    405: 'METHOD_NOT_ALLOWED',
    413: 'PAYLOAD_TOO_LARGE',
    415: 'UNSUPPORTED_MEDIA_TYPE',
  };
  const code = typeof validator?.status === 'number' ? byStatus[validator.status] : undefined;
  if (!code) return undefined;
  const bodySchema = req.storefront?.operation?.jsonBodySchema;
  const details =
    code === 'VALIDATION_ERROR'
      ? withMissingBody(inSelectedBranches(bodySchema, req.body, (validator.errors ?? []).map(toDetail)), req)
      : undefined;
  return new ApiError(code, { status: validator.status, ...(details ? { details } : {}) });
}

/**
 * The one error path: every failure becomes the section 7 envelope (or the 429 body), with `meta.status` equal
 * to the HTTP status and a Portuguese message. Anything unexpected is logged and answered as a bare 500.
 */
export const errorHandler =
  (logger: Logger): ErrorRequestHandler =>
  (error, req, res, _next) => {
    if (error instanceof RateLimitedError) {
      const body: RateLimitBody = {
        success: false,
        message: caseMessage('RATE_LIMITED', { retryAfter: error.retryAfter }),
        error: 'RATE_LIMITED',
        retryAfter: error.retryAfter,
      };
      res.status(429).setHeader('Retry-After', String(error.retryAfter)).json(body);
      return;
    }
    const known = classify(error, req);
    const apiError = known ?? new ApiError('INTERNAL_ERROR');
    if (!known || apiError.status >= 500) {
      (req.storefront?.log ?? logger).error({ err: error }, 'request failed');
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    const allow = (error as ValidatorError).headers?.Allow;
    if (apiError.status === 405 && allow) res.setHeader('Allow', allow.toUpperCase());
    res.status(apiError.status).json(errorBody(apiError.status, apiError.code, apiError.message, apiError.details));
  };

/** Requests outside the contract's paths (the validator only knows its own). */
export const unknownRoute: RequestHandler = (_req, _res, next) => next(new ApiError('ROUTE_NOT_FOUND'));
