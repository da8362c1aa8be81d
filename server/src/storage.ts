import { availableParallelism } from 'node:os';
import type { Kysely } from 'kysely';
import type { Store } from './db/database.ts';
import { inTransaction, type RunInTransaction } from './db/in-transaction.ts';
import { GroupCommit } from './db/pg-group-commit.ts';
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
 * PostgreSQL write transactions a process runs at once (`GroupCommit`): one per core, at least two, so that one
 * group's COMMIT waits for its flush while the next runs. Two measured best on 2 cores (against one and four).
 */
const WRITE_TRANSACTIONS = Math.max(2, availableParallelism());

/**
 * Reads run on the pool; each write runs in one transaction, so its change, its outbox rows and (for an idempotent
 * request) its claimed key and stored reply commit together (`inTransaction`: one SQLite refuses as busy runs again
 * from the start). On PostgreSQL writes that wait for a transaction commit in groups (`GroupCommit`), each still
 * all or nothing by itself.
 */
export function transactionalStorage(store: Store, network: NetworkPolicy): Storage {
  const alone: RunInTransaction<Database> = (work) => inTransaction(store.db, work);
  const run = store.engine === 'postgres' ? new GroupCommit(store.db, WRITE_TRANSACTIONS, alone).write : alone;
  return {
    deps: depsFor(store.reads ?? store.db, store, network),
    write: (work) => run((trx) => work(depsFor(trx, store, network))),
  };
}
