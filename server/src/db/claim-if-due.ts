import { type SelectQueryBuilder, sql } from 'kysely';

/**
 * Runs `claim` only when `due` finds a row, read outside any transaction. Most of the delivery worker's rounds
 * find nothing due, and a claim's transaction takes the write lock: on the embedded store the request thread
 * would wait for it behind the write thread's writes (SQLite's busy handler sleeps a millisecond or more, with
 * every request of the thread held meanwhile); on PostgreSQL it would cost a BEGIN and a COMMIT. Something that
 * falls due between the look and the next round is claimed in that round.
 */
export async function claimIfDue<DB, TB extends keyof DB, O, Claimed>(
  due: SelectQueryBuilder<DB, TB, O>,
  claim: () => Promise<Claimed[]>,
): Promise<Claimed[]> {
  const any = await due.select(sql<number>`1`.as('due')).limit(1).executeTakeFirst();
  return any === undefined ? [] : claim();
}
