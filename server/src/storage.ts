import type { Kysely } from 'kysely';
import type { Store } from './db/database.ts';
import { inTransaction } from './db/in-transaction.ts';
import { outboxEvents } from './domain/outbox-events.ts';
import type { NetworkPolicy } from './domain/ssrf-guard.ts';
import type { Storage } from './http/routes.ts';
import { createRepositories, type Database } from './resources/index.ts';
import type { Deps } from './resources/operation.ts';

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
    deps: depsFor(store.reads ?? store.db, store, network),
    write: (work) => inTransaction(store.db, (trx) => work(depsFor(trx, store, network))),
  };
}
