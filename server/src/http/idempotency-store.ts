import { type Kysely, type RawBuilder, sql } from 'kysely';
import { compiledOnce } from '../db/compiled-once.ts';
import type { Engine } from '../db/database.ts';
import { ANSWERED_LATER_SQL } from '../db/pg-answered-later.ts';
import type { Database } from '../resources/index.ts';

/** `idempotency_keys`, as server/migrations/001_core.sql creates it: one claimed key per (store, key). */
export interface IdempotencyKeysTable {
  store_id: string;
  idempotency_key: string;
  operation_id: string;
  request_hash: string;
  state: 'pending' | 'done';
  status: number | null;
  body: string | null;
  created_at: string;
}

export interface IdempotencyTables {
  idempotency_keys: IdempotencyKeysTable;
}

/** What claiming a key found (see `claim`). */
export type Claim = 'claimed' | 'taken' | 'in-use';

export interface IdempotencyRecord {
  operationId: string;
  requestHash: string;
  state: 'pending' | 'done';
  status: number | null;
  body: string | null;
  createdAt: string;
}

// The two statements of every keyed write on the embedded store (most creates carry a key), compiled once.
const claimKey = compiledOnce((db: Kysely<Database>) =>
  db
    .insertInto('idempotency_keys')
    .values({
      store_id: '',
      idempotency_key: '',
      operation_id: '',
      request_hash: '',
      state: 'pending',
      status: null,
      body: null,
      created_at: '',
    })
    // No error on a taken key: on PostgreSQL an error would abort the surrounding transaction.
    .onConflict((conflict) => conflict.columns(['store_id', 'idempotency_key']).doNothing())
    .returning('idempotency_key'),
);
const completeKey = compiledOnce((db: Kysely<Database>) =>
  db
    .updateTable('idempotency_keys')
    .set({ state: 'done', status: 0, body: '' })
    .where('store_id', '=', '')
    .where('idempotency_key', '=', '')
    // Nothing waits on its answer: on PostgreSQL it leaves with the COMMIT (pg-answered-later.ts).
    .modifyEnd(ANSWERED_LATER_SQL),
);

/** The SQLSTATE of `claimAhead` on a key not free (server/migrations/007_idempotency_key_unclaimed.postgres.sql). */
const KEY_UNCLAIMED = 'SFK01';

export const isKeyUnclaimed = (error: unknown): boolean => (error as { code?: unknown }).code === KEY_UNCLAIMED;

/**
 * PostgreSQL's claim of a key, compiled once with `outcome` (the statement's answer): `hold` takes the key's
 * advisory lock for the rest of the transaction, tried without waiting, and `claimed` inserts its record only then,
 * without an error on a key already taken (an error would abort the surrounding transaction). Its parameters are
 * `claimParameters`, in this order.
 */
const claimOnPostgres = <Row>(outcome: RawBuilder<Row>) =>
  compiledOnce((db: Kysely<Database>) => ({
    compile: () =>
      sql<Row>`
        WITH hold AS (SELECT pg_try_advisory_xact_lock(hashtextextended(${''}, 0)) AS held),
        claimed AS (
          INSERT INTO idempotency_keys
            (store_id, idempotency_key, operation_id, request_hash, state, status, body, created_at)
          SELECT ${''}::text, ${''}::text, ${''}::text, ${''}::text, 'pending', NULL, NULL, ${''}::text
          FROM hold WHERE hold.held
          ON CONFLICT (store_id, idempotency_key) DO NOTHING
          RETURNING 1)
        ${outcome}`.compile(db),
  }));

const claimParameters = (storeId: string, key: string, operationId: string, requestHash: string, now: string) => [
  `${storeId}\n${key}`,
  storeId,
  key,
  operationId,
  requestHash,
  now,
];

/** `claim` on PostgreSQL: whether the key was held, and whether its record was inserted. */
const claimAnswered = claimOnPostgres(
  sql<{ held: boolean; claimed: number }>`
    SELECT (SELECT held FROM hold) AS held, (SELECT count(*)::int FROM claimed) AS claimed`,
);

/** `claimAhead`: answered later, and failing the transaction with `KEY_UNCLAIMED` when the key is not free. */
const claimSentAhead = claimOnPostgres(
  sql`SELECT CASE WHEN EXISTS (SELECT 1 FROM claimed) THEN 1 ELSE idempotency_key_unclaimed() END
      ${ANSWERED_LATER_SQL}`,
);

/**
 * Remembered responses of requests sent with an `Idempotency-Key`, per store: the storage of `runIdempotently`
 * (idempotency.ts), not a resource of the contract.
 */
export function idempotencyRepository(db: Kysely<Database>, engine: Engine) {
  return {
    /**
     * Claims the key for a first request: `claimed`; `taken` when an earlier request holds a record of it;
     * `in-use` when another request with it is running now. On PostgreSQL the key is first held for the rest of
     * the transaction by an advisory lock tried without waiting, in the same statement as the claim (one round
     * trip), so a claim never waits on another request's uncommitted one; the embedded store runs one write
     * transaction at a time, so while this one runs no other request with the key is running.
     */
    async claim(storeId: string, key: string, operationId: string, requestHash: string, now: string): Promise<Claim> {
      if (engine === 'sqlite') {
        const claimed = await claimKey(db, [storeId, key, operationId, requestHash, 'pending', null, null, now]);
        return claimed.length > 0 ? 'claimed' : 'taken';
      }
      const [outcome] = await claimAnswered(db, claimParameters(storeId, key, operationId, requestHash, now));
      if (!outcome?.held) return 'in-use';
      return outcome.claimed > 0 ? 'claimed' : 'taken';
    },

    /**
     * PostgreSQL: claims the key as `claim` does, in a statement nobody waits on, so that it leaves with the write's
     * first statement (pg-answered-later.ts); when the key is not free it fails the transaction with
     * `KEY_UNCLAIMED`, and the write runs again with `claim` (`runClaimingAhead`). Undefined on the embedded store.
     */
    claimAhead:
      engine === 'postgres'
        ? async (storeId: string, key: string, operationId: string, requestHash: string, now: string) => {
            await claimSentAhead(db, claimParameters(storeId, key, operationId, requestHash, now));
          }
        : undefined,

    /** Waits for every statement sent ahead (a `claimAhead`'s outcome shows in its answer). */
    async settled(): Promise<void> {
      await sql`SELECT 1`.execute(db);
    },

    async find(storeId: string, key: string): Promise<IdempotencyRecord | undefined> {
      const row = await db
        .selectFrom('idempotency_keys')
        .selectAll()
        .where('store_id', '=', storeId)
        .where('idempotency_key', '=', key)
        .executeTakeFirst();
      return (
        row && {
          operationId: row.operation_id,
          requestHash: row.request_hash,
          state: row.state,
          status: row.status,
          body: row.body,
          createdAt: row.created_at,
        }
      );
    },

    async complete(storeId: string, key: string, status: number, body: string): Promise<void> {
      await completeKey(db, ['done', status, body, storeId, key]);
    },

    /** Frees a key: its first request failed or died, or its 24 hours are over. */
    async release(storeId: string, key: string): Promise<void> {
      await db
        .deleteFrom('idempotency_keys')
        .where('store_id', '=', storeId)
        .where('idempotency_key', '=', key)
        .execute();
    },
  };
}

export type IdempotencyRepository = ReturnType<typeof idempotencyRepository>;
