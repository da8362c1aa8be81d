import type { Kysely } from 'kysely';

/**
 * Runs `work` in a transaction: on the given one when the handle already is one (a request's transaction, so
 * the writes commit or roll back with the rest of it), in a new one on the pool otherwise.
 */
export function inTransaction<DB, R>(db: Kysely<DB>, work: (trx: Kysely<DB>) => Promise<R>): Promise<R> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
