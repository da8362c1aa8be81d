import { type Kysely, sql, type Transaction } from 'kysely';
import { retryingWhenBusy } from './retry-when-busy.ts';

/** One write: its statements, on the transaction it is given. */
export type Work<DB, Result> = (trx: Transaction<DB>) => Promise<Result>;

/** Runs one write in a transaction (of its own, for a write run alone). */
export type RunInTransaction<DB> = <Result>(work: Work<DB, Result>) => Promise<Result>;

/**
 * One name for every savepoint: nested savepoints may share a name (RELEASE and ROLLBACK TO act on the latest of
 * that name, which is the innermost), and one text is one prepared statement where a name per savepoint prepared
 * a new statement for each.
 */
const SAVEPOINT = sql.raw('nested');

/**
 * Runs `work` in a transaction of its own (run again from the start if SQLite refuses it as busy:
 * `retry-when-busy.ts`), or, when `db` already is one (a write's request transaction), in a savepoint of it: a
 * failure undoes only `work` (a retry after a unique violation still works on PostgreSQL), and nothing opens a
 * second connection (on SQLite that would wait forever behind the first).
 */
export async function inTransaction<DB, Result>(
  db: Kysely<DB>,
  work: (trx: Transaction<DB>) => Promise<Result>,
): Promise<Result> {
  if (!db.isTransaction) return retryingWhenBusy(() => db.transaction().execute(work));
  const trx = db as Transaction<DB>;
  await sql`SAVEPOINT ${SAVEPOINT}`.execute(trx);
  try {
    const result = await work(trx);
    await sql`RELEASE SAVEPOINT ${SAVEPOINT}`.execute(trx);
    return result;
  } catch (error) {
    await sql`ROLLBACK TO SAVEPOINT ${SAVEPOINT}`.execute(trx);
    await sql`RELEASE SAVEPOINT ${SAVEPOINT}`.execute(trx);
    throw error;
  }
}
