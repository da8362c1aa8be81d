import express, { type RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { CONTRACT_PATH } from './contract.ts';
import type { Engine, Store } from './db/database.ts';
import { automationRunner } from './domain/automation-runner.ts';
import { automationTriggers } from './domain/automation-triggers.ts';
import { createEventBus, type EventBus } from './domain/event-bus.ts';
import type { DomainEvents } from './domain/events.ts';
import { type NetworkPolicy, webhookSender } from './domain/ssrf-guard.ts';
import { webhookDelivery } from './domain/webhook-delivery.ts';
import { authenticate } from './http/authenticate.ts';
import { errorHandler, unknownRoute } from './http/error-handler.ts';
import { failedAuthThrottle } from './http/failed-auth-throttle.ts';
import { memoryRateLimiter, sqlRateLimiter } from './http/rate-limiter.ts';
import { requestLog } from './http/request-log.ts';
import { cacheRouteMatchers } from './http/route-matcher-cache.ts';
import { contractRoutes, type Storage } from './http/routes.ts';
import { requireStorableInput } from './http/storable-input.ts';
import type { ApiKeyRecord } from './repositories/credentials-repository.ts';
import { handlers as allHandlers, createRepositories, type Database } from './resources/index.ts';
import type { Deps, Handlers } from './resources/operation.ts';

export interface AppOptions {
  store: Store;
  config: Config & { adminToken: string };
  logger: Logger;
  /** Replaces handlers by operationId (tests use it to prove the error path). */
  overrides?: Partial<Handlers>;
}

/** What every handler shares, whichever database handle it works on. */
export interface Services {
  engine: Engine;
  events: EventBus;
  network: NetworkPolicy;
  /** The embedded store's memory of API keys: one per store, so that a revoke in any write clears it. */
  rememberedKeys: Map<string, ApiKeyRecord>;
}

/**
 * A handler's dependencies on one database handle (the pool, or one write's transaction): every repository on
 * it, and events that reach their listeners through `afterCommit`, so that nothing hears of a change that was
 * rolled back. The one place a write's dependencies are built.
 */
export function depsFor(db: Kysely<Database>, services: Services): { deps: Deps; afterCommit(): void } {
  const emitted: Parameters<DomainEvents['emit']>[] = [];
  return {
    deps: {
      repositories: createRepositories(db, services.engine, services.rememberedKeys),
      events: { emit: (...event) => emitted.push(event) },
      network: services.network,
    },
    afterCommit() {
      for (const event of emitted) services.events.emit(...event);
    },
  };
}

/** Runs each write in one transaction of the store, its events following the commit. */
export function transactionalStorage(store: Store, services: Services, reads: Deps): Storage {
  return {
    deps: reads,
    async write(work) {
      let afterCommit = () => {};
      const result = await store.db.transaction().execute((trx) => {
        const write = depsFor(trx, services);
        afterCommit = write.afterCommit;
        return work(write.deps);
      });
      afterCommit();
      return result;
    },
  };
}

/** Builds the Express app; start-up (listening, signals) lives in server.ts. */
export function createApp({ store, config, logger, overrides = {} }: AppOptions) {
  const rememberedKeys = new Map<string, ApiKeyRecord>();
  const repositories = createRepositories(store.db, store.engine, rememberedKeys);
  const events = createEventBus((error) => logger.error({ err: error }, 'event listener failed'));
  const network = { allowPrivateNetworks: config.webhookAllowPrivateNetworks };
  const services: Services = { engine: store.engine, events, network, rememberedKeys };
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
    validateRequests: { allowUnknownQueryParameters: false, allErrors: true },
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
    ...validator.slice(lookup + 1),
  ];

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(requestLog(logger));
  app.use(chain);
  const storage = transactionalStorage(store, services, { repositories, events, network });
  app.use(contractRoutes({ ...allHandlers, ...overrides }, storage));
  app.use(unknownRoute);
  app.use(errorHandler(logger));
  return { app, repositories, events };
}
