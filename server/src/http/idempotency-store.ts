import { type Kysely, sql } from 'kysely';
import { compiledOnce } from '../db/compiled-once.ts';
import type { Engine } from '../db/database.ts';
import { ANSWERED_LATER_SQL, answeredLaterOf } from '../db/pg-answered-later.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
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

/**
 * An insert of a key's record, every column a parameter, in this order: store, key, operation, request hash, state,
 * status, body, created at.
 */
const insertKeyRecord = (db: Kysely<Database>) =>
  db.insertInto('idempotency_keys').values({
    store_id: '',
    idempotency_key: '',
    operation_id: '',
    request_hash: '',
    state: 'pending',
    status: null,
    body: null,
    created_at: '',
  });

// The two statements of every keyed write on the embedded store (most creates carry a key), compiled once.
const claimKey = compiledOnce((db: Kysely<Database>) =>
  insertKeyRecord(db)
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

/** The SQLSTATE of `ahead.claim` on a key not free (server/migrations/007_idempotency_key_unclaimed.postgres.sql). */
const KEY_UNCLAIMED = 'SFK01';

export const isKeyUnclaimed = (error: unknown): boolean => (error as { code?: unknown }).code === KEY_UNCLAIMED;

/**
 * `claim` on PostgreSQL: `hold` takes the key's advisory lock for the rest of the transaction, tried without
 * waiting, and `claimed` inserts its record only then, without an error on a key already taken (an error would
 * abort the surrounding transaction). It answers whether the key was held and whether its record was inserted.
 */
const claimOnPostgres = compiledOnce((db: Kysely<Database>) => ({
  compile: () =>
    sql<{ held: boolean; claimed: number }>`
      WITH hold AS (SELECT pg_try_advisory_xact_lock(hashtextextended(${''}, 0)) AS held),
      claimed AS (
        INSERT INTO idempotency_keys
          (store_id, idempotency_key, operation_id, request_hash, state, status, body, created_at)
        SELECT ${''}::text, ${''}::text, ${''}::text, ${''}::text, 'pending', NULL, NULL, ${''}::text
        FROM hold WHERE hold.held
        ON CONFLICT (store_id, idempotency_key) DO NOTHING
        RETURNING 1)
      SELECT (SELECT held FROM hold) AS held, (SELECT count(*)::int FROM claimed) AS claimed`.compile(db),
}));

/**
 * The claim sent ahead (`ahead.claim`), answered later: it holds the key's advisory lock for the rest of the
 * transaction, tried without waiting, and looks for the key's record; it fails the transaction with
 * `KEY_UNCLAIMED` when the lock is held elsewhere or the record is there. It writes nothing: the record is
 * inserted once, with its reply (`recordAnsweredLater`).
 */
const claimSentAhead = compiledOnce((db: Kysely<Database>) => ({
  compile: () =>
    sql`
      SELECT CASE
        WHEN pg_try_advisory_xact_lock(hashtextextended(${''}, 0))
          AND NOT EXISTS (SELECT 1 FROM idempotency_keys WHERE store_id = ${''} AND idempotency_key = ${''})
        THEN 1 ELSE idempotency_key_unclaimed() END
      ${ANSWERED_LATER_SQL}`.compile(db),
}));

/** A key's record with its reply, inserted once the write it answers has run, answered later. */
const recordAnsweredLater = compiledOnce((db: Kysely<Database>) => insertKeyRecord(db).modifyEnd(ANSWERED_LATER_SQL));

/** What the advisory lock of a key is taken on: the key within its store. */
const lockOf = (storeId: string, key: string) => `${storeId}\n${key}`;

/** A key claimed ahead whose record another request inserted meanwhile: its write runs again, claiming first. */
function recordedMeanwhile(error: unknown): unknown {
  if (!isUniqueViolation(error)) return error;
  const unclaimed = new Error('Idempotency-Key not claimed: recorded by another request meanwhile', { cause: error });
  return Object.assign(unclaimed, { code: KEY_UNCLAIMED });
}

/** A key as the claim sent ahead found it: what its record says once the write it answers has run. */
export interface KeyClaimedAhead {
  storeId: string;
  key: string;
  operationId: string;
  requestHash: string;
  /** When it was claimed, as the record's `created_at`. */
  claimedAt: string;
}

/**
 * PostgreSQL's first try at a keyed write (`runClaimingAhead`), two statements nobody waits on: `claim` leaves with
 * the write's first statement and `record` with its COMMIT (pg-answered-later.ts), so the key's record is written
 * once, with its reply, instead of claimed and then completed. When the key is not free (held by a request running
 * with it, or recorded) the claim fails the transaction with `KEY_UNCLAIMED`, and the write runs again with
 * `claim`. A record another request inserted after the claim looked (between the claim's snapshot and its lock)
 * fails the record's insert, reported as `KEY_UNCLAIMED` too: nothing of the write is kept, and it runs again
 * claiming first.
 */
function claimingAhead(db: Kysely<Database>) {
  return {
    async claim({ storeId, key }: KeyClaimedAhead): Promise<void> {
      await claimSentAhead(db, [lockOf(storeId, key), storeId, key]);
    },
    async record(claimed: KeyClaimedAhead, status: number, body: string): Promise<void> {
      const { storeId, key, operationId, requestHash, claimedAt } = claimed;
      const rows = await recordAnsweredLater(db, [
        storeId,
        key,
        operationId,
        requestHash,
        'done',
        status,
        body,
        claimedAt,
      ]);
      answeredLaterOf(rows)?.failsAs(recordedMeanwhile);
    },
  };
}

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
      const [outcome] = await claimOnPostgres(db, [lockOf(storeId, key), storeId, key, operationId, requestHash, now]);
      if (!outcome?.held) return 'in-use';
      return outcome.claimed > 0 ? 'claimed' : 'taken';
    },

    /** PostgreSQL's claim sent ahead and the record written with the COMMIT (`claimingAhead`); none on the embedded store. */
    ahead: engine === 'postgres' ? claimingAhead(db) : undefined,

    /** Waits for every statement sent ahead (the outcome of `ahead.claim` shows in its answer). */
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
