import express, { type RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { OpenApiValidatorOpts as OpenApiValidatorOptions } from 'express-openapi-validator/dist/framework/types.js';
import type { Logger } from 'pino';
import { CONTRACT_FORMATS } from '../../lib/formats.ts';
import type { Config } from './config.ts';
import { loadContract, maxBodyBytes } from './contract.ts';
import type { Store } from './db/database.ts';
import { webhookSender } from './domain/ssrf-guard.ts';
import { authenticate } from './http/authenticate.ts';
import { bodyInCanonicalForms, lowercaseUrlUuids } from './http/canonical-input.ts';
import { continueOnceAuthenticated, readRequestTarget } from './http/client-errors.ts';
import { emptyBodyIsNone, noteEmptyBody } from './http/empty-body.ts';
import { errorHandler, unknownRoute } from './http/error-handler.ts';
import { failedAuthThrottle } from './http/failed-auth-throttle.ts';
import { compileOperationLookup } from './http/operation-lookup.ts';
import { skipIdleParameterMutation } from './http/parameter-mutation.ts';
import { cutBodyPastBounds } from './http/past-bounds.ts';
import { requireDecimalQueryIntegers } from './http/query-integers.ts';
import { memoryRateLimiter, sqlRateLimiter } from './http/rate-limiter.ts';
import { ReplyCache } from './http/reply-cache.ts';
import { requestLog } from './http/request-log.ts';
import { requireDeclaredBody } from './http/required-body.ts';
import { contractRoutes } from './http/routes.ts';
import { sharedFailedAuthThrottle } from './http/shared-failed-auth-throttle.ts';
import { noteBodyNotUtf8, requireStorableInput, unsupportedCharset } from './http/storable-input.ts';
import { reportErrorPlacesExactly } from './http/validator-error-paths.ts';
import { trimValidatorStartUp } from './http/validator-start-up.ts';
import { API_KEY_REVOKED_CHANNEL, revokesHeard } from './resources/credentials/key-revocations.ts';
import { handlers as allHandlers } from './resources/index.ts';
import type { Handlers } from './resources/operation.ts';
import { depsFor, transactionalStorage } from './storage.ts';
import { deliveryWorker } from './worker/delivery-worker.ts';
import { startWriteThread } from './write-thread.ts';

export interface AppOptions {
  store: Store;
  config: Config & { adminToken: string };
  logger: Logger;
  /** Replaces handlers by operationId (tests use it to prove the error path). */
  overrides?: Partial<Handlers>;
}

/**
 * The JSON body parser. Not strict: a JSON `null` or `"x"` reaches the validator, which names the body's type from
 * the contract. Its `verify` notes, before parsing, what the parsed body would hide: no bytes at all, bytes that are
 * not UTF-8.
 */
const jsonParser = express.json({
  limit: maxBodyBytes,
  strict: false,
  // A body is sent as it is (the contract's "Text and nesting"): any Content-Encoding is 415.
  inflate: false,
  verify: (req, res, bytes, charset) => {
    noteEmptyBody(req, bytes);
    noteBodyNotUtf8(req, res, bytes, charset);
  },
});
/** The JSON body parser, a body in another charset than UTF-8 refused first (one middleware, one router hop). */
const parseJsonBody: RequestHandler = (req, res, next) => {
  const refused = unsupportedCharset(req);
  if (refused) return next(refused);
  jsonParser(req, res, next);
};

/** Builds the Express app; start-up (listening, signals) lives in server.ts. */
export function createApp({ store, config, logger, overrides = {} }: AppOptions) {
  const network = { allowPrivateNetworks: config.webhookAllowPrivateNetworks };
  // The embedded store's writes run on a thread of their own (write-thread.ts), except with handlers replaced,
  // which only this thread has.
  const writeThread =
    store.embedded && Object.keys(overrides).length === 0
      ? startWriteThread({
          ...store.embedded,
          network,
          logLevel: config.logLevel,
          textReplies: !config.validateResponses,
        })
      : undefined;
  const replies = replyCache(store, config.validateResponses);
  const storage = {
    ...transactionalStorage(store, network),
    textReplies: !config.validateResponses,
    ...(writeThread ? { writeThread } : {}),
    ...(replies ? { replies } : {}),
  };
  // The worker, authentication and the callers of createApp work on the pool: reads on PostgreSQL share
  // connections that refuse a transaction (storage.deps, store.reads), and the worker's claims are transactions.
  const { repositories } = depsFor(store.db, store, network);
  // Started by the caller once the app listens (server.ts, the test harness).
  const worker = deliveryWorker({
    repositories,
    retrySchedule: config.webhookRetrySchedule,
    minuteMs: config.automationMinuteMs,
    send: webhookSender(network),
    log: logger,
  });
  // Other instances sharing PostgreSQL announce their revokes: remembered keys are forgotten as they arrive.
  store.listen?.(API_KEY_REVOKED_CHANNEL, revokesHeard());
  const window = { max: config.rateLimitMax, windowSeconds: config.rateLimitWindowSeconds };
  const rateLimiter = store.engine === 'postgres' ? sqlRateLimiter(store, window) : memoryRateLimiter(window);
  // Failed authentications count against an address on every instance sharing PostgreSQL, as they are announced.
  const ownFailedAuth = failedAuthThrottle(config.authFailureLimit);
  const failedAuth = store.listen ? sharedFailedAuthThrottle(ownFailedAuth, store.db, store.listen) : ownFailedAuth;

  const chain = requestChain(
    contractValidator(config.validateResponses),
    authenticate({ credentials: repositories.credentials, rateLimiter, adminToken: config.adminToken, failedAuth }),
  );

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // A path is the contract's to the letter, as the mock matches it: `/API/V1/PRODUCTS` and `/api/v1/products/`
  // are 404 ROUTE_NOT_FOUND, not another spelling of listProducts.
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  // The contract declares no conditional requests (no ETag, no 304): Express would answer `If-None-Match: *`
  // with 304 and no body.
  Object.defineProperty(app.request, 'fresh', { get: () => false });
  app.use(requestLog(logger));
  app.use(readRequestTarget);
  app.use(lowercaseUrlUuids);
  app.use(chain);
  app.use(contractRoutes({ ...allHandlers, ...overrides }, storage));
  app.use(unknownRoute);
  app.use(errorHandler(logger));
  return { app, repositories, worker, writeThread };
}

/**
 * What runs before an operation's handler. Authentication runs after the route lookup and before request
 * validation (see http/authenticate.ts); the body is read only then, so that a malformed or oversized body never
 * answers before the key and scope checks.
 */
function requestChain(validator: RequestHandler[], authentication: RequestHandler): RequestHandler[] {
  const lookup = validator.findIndex((middleware) => middleware.name === 'metadataMiddleware');
  return [
    ...validator.slice(0, lookup + 1),
    authentication,
    continueOnceAuthenticated,
    parseJsonBody,
    emptyBodyIsNone,
    requireStorableInput,
    requireDecimalQueryIntegers,
    cutBodyPastBounds,
    bodyInCanonicalForms,
    ...validator.slice(lookup + 1),
    requireDeclaredBody,
  ];
}

/**
 * express-openapi-validator's middlewares for the contract, with the steps this server replaces or skips
 * (operation-lookup.ts, parameter-mutation.ts, validator-error-paths.ts, validator-start-up.ts) in place.
 */
function contractValidator(validateResponses: boolean): RequestHandler[] {
  compileOperationLookup();
  skipIdleParameterMutation();
  reportErrorPlacesExactly();
  trimValidatorStartUp();
  return OpenApiValidator.middleware({
    // The parsed document (lib/contract.ts reads the generated parse), not the path: the validator would parse
    // the YAML again. It takes its own copy.
    apiSpec: loadContract() as unknown as OpenApiValidatorOptions['apiSpec'],
    // The contract says undeclared query parameters are ignored (info: Query strings).
    validateRequests: { allowUnknownQueryParameters: true, allErrors: true },
    validateResponses,
    validateSecurity: false,
    validateFormats: true,
    formats: CONTRACT_FORMATS,
    ignoreUndocumented: false,
    // The contract is checked against the OpenAPI schema by `npm test` (validator-start-up.test.ts, redocly lint),
    // not again at every start (a third of a second before the first answer).
    validateApiSpec: false,
  }) as unknown as RequestHandler[];
}

/** The replies of the store's reads by id (http/reply-cache.ts); none for a store without a committed version. */
function replyCache({ committedVersion }: Store, validateResponses: boolean): ReplyCache | undefined {
  if (!committedVersion) return undefined;
  // A version that costs a round trip is checked only while checking pays.
  const pauseWhileMissing = committedVersion.roundTrip;
  return new ReplyCache(committedVersion.take, { bodies: validateResponses, pauseWhileMissing });
}
