import type { DatabaseSync } from 'node:sqlite';
import type { Kysely } from 'kysely';
import { inTransaction, type Work } from './in-transaction.ts';

/**
 * Embedded-store writes that were waiting together, run in one transaction and committed by one COMMIT. A COMMIT
 * writes to the WAL every page its transaction dirtied, two system calls a page: a create dirties six, four of
 * which (the tables' last pages and the append-only indexes) the next create dirties again, so five creates in
 * one transaction write about fourteen pages where five transactions write thirty.
 *
 * Each write runs in a savepoint of its own, one after another in the order they arrived (each sees what the ones
 * before it wrote, as if it ran right after them): a write that fails undoes only its own changes and fails alone.
 * Should the transaction itself fail (SQLite refusing its COMMIT, or ending it early after an I/O error), nothing
 * of it was kept, and every write runs again alone, succeeding or failing by itself. Nothing is answered before
 * the COMMIT: the caller answers each write from what this returns.
 */
export async function commitTogether<DB, Result>(
  db: Kysely<DB>,
  database: Pick<DatabaseSync, 'isTransaction'>,
  works: Work<DB, Result>[],
): Promise<PromiseSettledResult<Result>[]> {
  if (works.length > 1) {
    try {
      // A transaction of its own (db is the pool), run again from the start should SQLite refuse it as busy.
      return await inTransaction(db, async (trx) => {
        const settled: PromiseSettledResult<Result>[] = [];
        for (const work of works) {
          settled.push(await settle(inTransaction(trx, work)));
          if (!database.isTransaction) throw new Error('SQLite ended the transaction of a group of writes');
        }
        return settled;
      });
    } catch {
      // Nothing of the group was kept: below, each write runs again by itself.
    }
  }
  const settled: PromiseSettledResult<Result>[] = [];
  for (const work of works) settled.push(await settle(inTransaction(db, work)));
  return settled;
}

const settle = <T>(promise: Promise<T>): Promise<PromiseSettledResult<T>> =>
  promise.then(
    (value) => ({ status: 'fulfilled', value }),
    (reason: unknown) => ({ status: 'rejected', reason }),
  );
