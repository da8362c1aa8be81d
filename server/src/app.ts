import express, { type RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { CONTRACT_PATH } from './contract.ts';
import type { Store } from './db/database.ts';
import { automationRunner } from './domain/automation-runner.ts';
import { automationTriggers } from './domain/automation-triggers.ts';
import { createEventBus } from './domain/event-bus.ts';
import { webhookSender } from './domain/ssrf-guard.ts';
import { webhookDelivery } from './domain/webhook-delivery.ts';
import { authenticate } from './http/authenticate.ts';
import { errorHandler, unknownRoute } from './http/error-handler.ts';
import { failedAuthThrottle } from './http/failed-auth-throttle.ts';
import { lowercaseBodyUuids, lowercaseUrlUuids } from './http/lowercase-uuids.ts';
import { memoryRateLimiter, sqlRateLimiter } from './http/rate-limiter.ts';
import { requestLog } from './http/request-log.ts';
import { cacheRouteMatchers } from './http/route-matcher-cache.ts';
import { contractRoutes } from './http/routes.ts';
import { requireStorableInput } from './http/storable-input.ts';
import { handlers as allHandlers, createRepositories } from './resources/index.ts';
import type { Handlers } from './resources/operation.ts';

export interface AppOptions {
  store: Store;
  config: Config & { adminToken: string };
  logger: Logger;
  /** Replaces handlers by operationId (tests use it to prove the error path). */
  overrides?: Partial<Handlers>;
}

/** Builds the Express app; start-up (listening, signals) lives in server.ts. */
export function createApp({ store, config, logger, overrides = {} }: AppOptions) {
  const repositories = createRepositories(store.db, store.engine);
  const events = createEventBus((error) => logger.error({ err: error }, 'event listener failed'));
  const network = { allowPrivateNetworks: config.webhookAllowPrivateNetworks };
  const send = webhookSender(network);
  events.subscribe(
    webhookDelivery({ webhooks: repositories.webhooks, retryBaseMs: config.webhookRetryBaseMs, log: logger, send })
      .listener,
  );
  events.subscribe(automationRunner({ repositories, minuteMs: config.automationMinuteMs, log: logger }).listener);
  events.subscribe(automationTriggers(repositories, events));
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
  app.use(contractRoutes({ ...allHandlers, ...overrides }, { repositories, events, network }));
  app.use(unknownRoute);
  app.use(errorHandler(logger));
  return { app, repositories, events };
}
