import type { Request, RequestHandler, Response } from 'express';
import { UUID } from '../../../lib/uuid.ts';
import { formatReason, missingReason } from '../../../lib/validation-reasons.ts';
import { apiKeyForm, checkoutKeyForm, contractOperations, type Operation, type OperationId } from '../contract.ts';
import { hashSecret, sameSecret } from '../domain/secrets.ts';
import { ApiError, detail, validationError } from '../errors.ts';
import type { CredentialsRepository } from '../resources/credentials/repository.ts';
import { FAILED_AUTH_WINDOW_SECONDS, type FailedAuthThrottle } from './failed-auth-throttle.ts';
import type { RateLimiter } from './rate-limiter.ts';

// The scheme is case-insensitive (RFC 9110 §11.1): `bearer`, `BEARER`; one space or more before the token (1*SP).
const BEARER = /^Bearer +(\S+)$/i;
// Worded as the request validator words the same violations of the contract's StoreId parameter (a mock too).
const STORE_ID_NOT_UUID = formatReason('uuid');
const STORE_ID_MISSING = missingReason('x-store-id');

export interface AuthenticateDeps {
  credentials: CredentialsRepository;
  rateLimiter: RateLimiter;
  adminToken: string;
  failedAuth: FailedAuthThrottle;
}

const byOperationId = new Map<OperationId, Operation>(contractOperations.map((op) => [op.operationId, op]));

/** The 429 body of section 7 (not the standard envelope), with `Retry-After` equal to `retryAfter`. */
export class RateLimitedError extends Error {
  readonly retryAfter: number;
  constructor(retryAfter: number) {
    super('rate limited');
    this.retryAfter = retryAfter;
  }
}

async function applyRateLimit(rateLimiter: RateLimiter, bucket: string, res: Response): Promise<void> {
  const decision = await rateLimiter.hit(bucket);
  res.setHeader('RateLimit-Policy', `"default";q=${decision.limit};w=${decision.windowSeconds}`);
  res.setHeader('RateLimit', `"default";r=${decision.remaining};t=${decision.resetSeconds}`);
  if (!decision.allowed) throw new RateLimitedError(decision.resetSeconds);
}

const keyRequired = () => new ApiError('AUTH_API_KEY_REQUIRED');

/** 429 before any credential is looked at, once the client address has failed too often this window. */
function refuseThrottledAddress(failedAuth: FailedAuthThrottle, address: string, res: Response): void {
  const wait = failedAuth.blockedFor(address);
  if (wait === undefined) return;
  res.setHeader('RateLimit-Policy', `"failed-auth";q=${failedAuth.limit};w=${FAILED_AUTH_WINDOW_SECONDS}`);
  res.setHeader('RateLimit', `"failed-auth";r=0;t=${wait}`);
  throw new RateLimitedError(wait);
}

/**
 * Runs between the validator's route lookup and its request validation, so that every operation applies the
 * contract's order of checks: key (401) → rate limit (429) → X-Store-Id format (400) → store (403) → scope (403);
 * only then the request itself is validated (400). The scopes come from the operation's security requirement.
 */
export function authenticate({ credentials, rateLimiter, adminToken, failedAuth }: AuthenticateDeps): RequestHandler {
  const apiKey = async (req: Request, res: Response, operation: Operation) => {
    const given = BEARER.exec(req.get('authorization') ?? '')?.[1];
    if (!given || !apiKeyForm.pattern.test(given)) throw keyRequired();
    const key = await credentials.findApiKeyByHash(hashSecret(given));
    if (!key || key.revokedAt !== null || (key.expiresAt !== null && key.expiresAt <= new Date().toISOString())) {
      throw keyRequired();
    }
    await applyRateLimit(rateLimiter, `key:${key.id}`, res);
    const storeId = req.get('x-store-id') ?? '';
    if (!UUID.test(storeId)) {
      throw validationError([detail('header', 'x-store-id', storeId ? STORE_ID_NOT_UUID : STORE_ID_MISSING)]);
    }
    const normalizedStoreId = storeId.toLowerCase();
    if (!key.storeIds.includes(normalizedStoreId)) throw new ApiError('AUTH_STORE_ACCESS_DENIED');
    if (!operation.scopes.every((scope) => key.scopes.includes(scope))) throw new ApiError('AUTH_SCOPE_DENIED');
    req.storefront.storeId = normalizedStoreId;
    req.storefront.principal = key.id;
  };

  const checkoutKey = async (req: Request, res: Response) => {
    const given = req.get(checkoutKeyForm.header) ?? '';
    if (!checkoutKeyForm.pattern.test(given)) throw keyRequired();
    const key = await credentials.findCheckoutKeyByHash(hashSecret(given));
    if (!key) throw keyRequired();
    await applyRateLimit(rateLimiter, `checkout:${key.id}`, res);
    req.storefront.storeId = key.storeId;
    req.storefront.principal = key.id;
  };

  const admin = (req: Request) => {
    const match = BEARER.exec(req.get('authorization') ?? '');
    if (!match?.[1] || !sameSecret(match[1], adminToken)) throw new ApiError('AUTH_ADMIN_TOKEN_REQUIRED');
    req.storefront.principal = 'admin';
  };

  return async (req, res, next) => {
    const operationId = (req as { openapi?: { schema?: { operationId?: OperationId } } }).openapi?.schema?.operationId;
    const operation = operationId ? byOperationId.get(operationId) : undefined;
    if (!operation) return next();
    req.storefront.operation = operation;
    // The TCP peer: behind a reverse proxy every client shares its address (see the README).
    const address = req.socket.remoteAddress ?? 'unknown';
    try {
      refuseThrottledAddress(failedAuth, address, res);
      if (operation.scheme === 'ApiKeyAuth') await apiKey(req, res, operation);
      else if (operation.scheme === 'CheckoutApiKey') await checkoutKey(req, res);
      else admin(req);
      next();
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        failedAuth.recordFailure(address);
        // RFC 9110: a 401 says how to authenticate.
        if (operation.challenge) res.setHeader('WWW-Authenticate', operation.challenge);
      }
      next(error);
    }
  };
}
