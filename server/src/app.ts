import express, { type RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { CONTRACT_PATH } from './contract.ts';
import type { Store } from './db/database.ts';
import { outboxEvents } from './domain/outbox-events.ts';
import { webhookSender } from './domain/ssrf-guard.ts';
import { authenticate } from './http/authenticate.ts';
import { errorHandler, unknownRoute } from './http/error-handler.ts';
import { failedAuthThrottle } from './http/failed-auth-throttle.ts';
import { lowercaseBodyUuids, lowercaseUrlUuids } from './http/lowercase-uuids.ts';
import { memoryRateLimiter, sqlRateLimiter } from './http/rate-limiter.ts';
import { requestLog } from './http/request-log.ts';
import { cacheRouteMatchers } from './http/route-matcher-cache.ts';
import { contractRoutes } from './http/routes.ts';
import { requireStorableInput } from './http/storable-input.ts';
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

/** Builds the Express app; start-up (listening, signals) lives in server.ts. */
export function createApp({ store, config, logger, overrides = {} }: AppOptions) {
  const network = { allowPrivateNetworks: config.webhookAllowPrivateNetworks };
  /** What handlers use, on a database handle: the pool, or a request's transaction (events go to its outbox). */
  const depsFor = (db: Kysely<Database>): Deps => {
    const repositories = createRepositories(db, store.engine);
    return { repositories, events: outboxEvents(repositories), network };
  };
  const deps = depsFor(store.db);
  const { repositories } = deps;
  // Started by the caller once the app listens (server.ts, the test harness).
  const worker = deliveryWorker({
    repositories,
    retrySchedule: config.webhookRetrySchedule,
    minuteMs: config.automationMinuteMs,
    send: webhookSender(network),
    log: logger,
  });
  const window = { max: config.rateLimitMax, windowSeconds: config.rateLimitWindowSeconds };
  const rateLimiter = store.engine === 'postgres' ? sqlRateLimiter(store, window) : memoryRateLimiter(window);

  cacheRouteMatchers();
  const validator = OpenApiValidator.middleware({
    apiSpec: CONTRACT_PATH,
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
  app.use(contractRoutes({ ...allHandlers, ...overrides }, deps));
  app.use(unknownRoute);
  app.use(errorHandler(logger));
  return { app, repositories, worker };
}
