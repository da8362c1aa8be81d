import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import type { components } from '../../../generated/openapi.ts';
import { VALIDATION_REASONS } from '../../../lib/validation-reasons.ts';
import { ApiError, detail, type ErrorCode, type ErrorDetail, errorBody } from '../errors.ts';
import { RateLimitedError } from './authenticate.ts';

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
 * Portuguese reasons for the JSON Schema keywords the validator reports: the ones the mock shares, plus the
 * keywords only the server's validator words.
 */
const REASONS: Readonly<Record<string, string>> = {
  ...VALIDATION_REASONS,
  minProperties: 'envie ao menos um campo',
  maxProperties: 'campos demais',
  oneOf: 'não corresponde a nenhuma das formas aceitas',
  anyOf: 'não corresponde a nenhuma das formas aceitas',
  discriminator: 'tipo de passo inválido',
  if: 'não atende às regras condicionais do esquema',
};

function toDetail(item: NonNullable<ValidatorError['errors']>[number]): ErrorDetail {
  // Paths look like `/body/logistics/weight` or `/query/limit`; the first segment is where the field lives.
  const segments = (item.path ?? '').replace(/^[./]/, '').split(/[./]/).filter(Boolean);
  const location = LOCATIONS[segments[0] ?? ''] ?? 'body';
  const keyword = (item.errorCode ?? '').replace(/\.openapi\.(validation|requestValidation)$/, '');
  const reason = REASONS[keyword] ? `${REASONS[keyword]} (${item.message ?? keyword})` : (item.message ?? 'inválido');
  const path = segments.slice(1).join('.');
  return detail(location, location === 'header' ? path.toLowerCase() : path, reason);
}

function classify(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return error;
  const parser = error as ParserError;
  if (typeof parser?.type === 'string') {
    if (parser.type === 'entity.parse.failed') {
      return new ApiError(400, 'VALIDATION_ERROR', 'O corpo da requisição não é um JSON válido.', [
        detail('body', '', 'JSON malformado'),
      ]);
    }
    if (parser.type === 'entity.too.large') return new ApiError(413, 'PAYLOAD_TOO_LARGE');
    if (parser.type === 'encoding.unsupported' || parser.type === 'charset.unsupported') {
      return new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE');
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
  const details = code === 'VALIDATION_ERROR' ? (validator.errors ?? []).map(toDetail) : undefined;
  return new ApiError(validator.status, code, undefined, details);
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
        message: `Muitas requisições. Tente novamente em ${error.retryAfter} segundos.`,
        error: 'RATE_LIMITED',
        retryAfter: error.retryAfter,
      };
      res.status(429).setHeader('Retry-After', String(error.retryAfter)).json(body);
      return;
    }
    const known = classify(error);
    const apiError = known ?? new ApiError(500, 'INTERNAL_ERROR');
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
export const unknownRoute: RequestHandler = (_req, _res, next) => next(new ApiError(404, 'ROUTE_NOT_FOUND'));
