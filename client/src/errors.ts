import type { components } from '../../generated/openapi-wire.ts';

type ErrorResponse = components['schemas']['ErrorResponse'];
type RateLimitResponse = components['schemas']['RateLimitResponse'];
export type ErrorCode = components['schemas']['ErrorCode'];
export type ErrorDetail = components['schemas']['ErrorDetail'];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function isErrorResponse(body: unknown): body is ErrorResponse {
  return (
    isObject(body) &&
    body.success === false &&
    isObject(body.error) &&
    typeof body.error.code === 'string' &&
    typeof body.error.message === 'string'
  );
}

function isRateLimitResponse(body: unknown): body is RateLimitResponse {
  return isObject(body) && body.success === false && body.error === 'RATE_LIMITED' && typeof body.message === 'string';
}

/**
 * Every answer of the API that is not a success, as one error: the HTTP status and, from the documented
 * envelope, `code`, `message` and `details` (the 429 body, which has its own shape, gives `RATE_LIMITED`, its
 * message and `retryAfter`). A body that is neither shape (a proxy's 502, say) keeps `code: null`; `body` always
 * holds what was received, `headers` the answer's headers (`RateLimit`, say) and `requestId` its `X-Request-Id`,
 * the id to quote to the API's support.
 */
export class StorefrontApiError extends Error {
  override readonly name = 'StorefrontApiError';
  readonly status: number;
  readonly requestId: string | null;
  readonly headers: Headers;
  readonly code: ErrorCode | null;
  readonly details: ErrorDetail[];
  /** Seconds to wait, on a 429. */
  readonly retryAfter: number | null;
  readonly body: unknown;

  constructor(response: Pick<Response, 'status' | 'headers'>, body: unknown) {
    const { status } = response;
    let message = `HTTP ${status}`;
    let code: ErrorCode | null = null;
    let details: ErrorDetail[] = [];
    let retryAfter: number | null = null;
    if (isErrorResponse(body)) {
      ({ message, code } = body.error);
      details = body.error.details ?? [];
    } else if (isRateLimitResponse(body)) {
      message = body.message;
      code = body.error;
      retryAfter = body.retryAfter;
    } else if (typeof body === 'string' && body.trim() !== '') {
      message = `HTTP ${status}: ${body.slice(0, 200)}`;
    }
    super(message);
    this.status = status;
    this.requestId = response.headers.get('X-Request-Id');
    this.headers = response.headers;
    this.code = code;
    this.details = details;
    this.retryAfter = retryAfter;
    this.body = body;
  }
}
