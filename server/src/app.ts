import express, { type RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { OpenApiValidatorOpts as OpenApiValidatorOptions } from 'express-openapi-validator/dist/framework/types.js';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { loadContract } from './contract.ts';
import type { Store } from './db/database.ts';
import { inTransaction } from './db/in-transaction.ts';
import { outboxEvents } from './domain/outbox-events.ts';
import { type NetworkPolicy, webhookSender } from './domain/ssrf-guard.ts';
import { authenticate } from './http/authenticate.ts';
import { errorHandler, unknownRoute } from './http/error-handler.ts';
import { failedAuthThrottle } from './http/failed-auth-throttle.ts';
import { lowercaseBodyUuids, lowercaseUrlUuids } from './http/lowercase-uuids.ts';
import { compileOperationLookup } from './http/operation-lookup.ts';
import { skipIdleParameterMutation } from './http/parameter-mutation.ts';
import { memoryRateLimiter, sqlRateLimiter } from './http/rate-limiter.ts';
import { requestLog } from './http/request-log.ts';
import { contractRoutes, type Storage } from './http/routes.ts';
import { requireStorableInput } from './http/storable-input.ts';
import { API_KEY_REVOKED_CHANNEL, revokesHeard } from './resources/credentials/key-revocations.ts';
import { handlers as allHandlers, createRepositories, type Database } from './resources/index.ts';
import type { Deps, Handlers } from './resources/operation.ts';
import { deliveryWorker } from './worker/delivery-worker.ts';

export interface AppOptions {
  store: Store;
  config: Config & { adminToken: string };
  logger: Logger;
  /** Replaces handlers by operationId (tests use it to prove the error path). */
  overrides?: Partial<Handlers>;
}

/**
 * What handlers use, on one database handle: the pool, or one write's transaction. Every repository is bound to
 * it, and events go to the outbox through the same handle, so a change and the deliveries it causes commit or
 * roll back together. The one place a handler's dependencies are built.
 */
export function depsFor(db: Kysely<Database>, store: Store, network: NetworkPolicy): Deps {
  const repositories = createRepositories(db, store.engine);
  return { repositories, events: outboxEvents(repositories), network };
}

/**
 * Reads run on the pool; each write runs in one transaction of its own, so its change, its outbox rows and (for
 * an idempotent request) its claimed key and stored reply commit together (`inTransaction`: one SQLite refuses as
 * busy runs again from the start).
 */
export function transactionalStorage(store: Store, network: NetworkPolicy): Storage {
  return {
    deps: depsFor(store.db, store, network),
    write: (work) => inTransaction(store.db, (trx) => work(depsFor(trx, store, network))),
  };
}

/** Builds the Express app; start-up (listening, signals) lives in server.ts. */
export function createApp({ store, config, logger, overrides = {} }: AppOptions) {
  const network = { allowPrivateNetworks: config.webhookAllowPrivateNetworks };
  const storage = transactionalStorage(store, network);
  const { repositories } = storage.deps;
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

  compileOperationLookup();
  skipIdleParameterMutation();
  const validator = OpenApiValidator.middleware({
    // The parsed document (lib/contract.ts reads the generated parse), not the path: the validator would parse
    // the YAML again. It takes its own copy.
    apiSpec: loadContract() as unknown as OpenApiValidatorOptions['apiSpec'],
    // The contract says undeclared query parameters are ignored (info: Query strings).
    validateRequests: { allowUnknownQueryParameters: true, allErrors: true },
    validateResponses: config.validateResponses,
    validateSecurity: false,
    validateFormats: true,
    ignoreUndocumented: false,
  }) as unknown as RequestHandler[];
  // Authentication runs after the route lookup and before request validation (see http/authenticate.ts); the
  // body is read only then, so that a malformed or oversized body never answers before the key and scope checks.
  const lookup = validator.findIndex((middleware) => middleware.name === 'metadataMiddleware');
  const chain = [
    ...validator.slice(0, lookup + 1),
    authenticate({
      credentials: repositories.credentials,
      rateLimiter,
      adminToken: config.adminToken,
      failedAuth: failedAuthThrottle(config.authFailureLimit),
    }),
    express.json({ limit: '1mb' }),
    requireStorableInput,
    lowercaseBodyUuids,
    ...validator.slice(lookup + 1),
  ];

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(requestLog(logger));
  app.use(lowercaseUrlUuids);
  app.use(chain);
  app.use(contractRoutes({ ...allHandlers, ...overrides }, storage));
  app.use(unknownRoute);
  app.use(errorHandler(logger));
  return { app, repositories, worker };
}
