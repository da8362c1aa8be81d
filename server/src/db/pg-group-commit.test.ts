import { type Kysely, sql, type Transaction } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { engines, freshStore } from '../../test/harness.ts';
import type { Database } from '../resources/index.ts';
import type { Store } from './database.ts';
import { inTransaction, type Work } from './in-transaction.ts';
import { ANSWERED_LATER_SQL, answeredLaterOf } from './pg-answered-later.ts';
import { GroupCommit } from './pg-group-commit.ts';

/** A row per write, with the transaction that wrote it. */
interface Written {
  id: number;
  tx: string;
}

/** A write that records its id and its transaction, and answers `id * 10`. */
const record =
  (id: number, { answeredLater = false } = {}): Work<Database, number> =>
  async (trx) => {
    const end = answeredLater ? ANSWERED_LATER_SQL : sql``;
    await sql`INSERT INTO grouped (id, tx) VALUES (${id}, txid_current())${end}`.execute(trx);
    return id * 10;
  };

/** Settles a list of writes: each one's answer, or the code (or message) of its failure. */
const outcomes = (writes: Promise<number>[]) =>
  Promise.all(
    writes.map((write) =>
      write.then(
        (value) => ({ value }),
        (error: { code?: string; message: string }) => ({ failed: error.code ?? error.message }),
      ),
    ),
  );

/**
 * Holds the one transaction of a GroupCommit of one until `release`, so that the writes after it wait together.
 * Resolves once the held write runs (a write waits for the end of the event loop's turn).
 */
async function holding(group: GroupCommit<Database>, id = 0) {
  const released = Promise.withResolvers<void>();
  const started = Promise.withResolvers<void>();
  const held = group.write(async (trx) => {
    started.resolve();
    await record(id)(trx);
    await released.promise;
    return 0;
  });
  await started.promise;
  return { held, release: released.resolve };
}

describe.skipIf(!engines.includes('postgres'))('writes committed in groups (PostgreSQL)', () => {
  let store: Store;
  let close: () => Promise<void>;
  let db: Kysely<Database>;
  let alone: number;
  let group: GroupCommit<Database>;

  const rows = async () => (await sql<Written>`SELECT id, tx::text AS tx FROM grouped ORDER BY id`.execute(db)).rows;

  beforeAll(async () => {
    ({ store, close } = await freshStore('postgres'));
    db = store.db;
    await sql`CREATE TABLE grouped (id int PRIMARY KEY, tx bigint NOT NULL)`.execute(db);
  });

  afterAll(() => close());

  beforeEach(async () => {
    await sql`DELETE FROM grouped`.execute(db);
    alone = 0;
    group = new GroupCommit(db, 1, <Result>(work: Work<Database, Result>) => {
      alone += 1;
      return inTransaction(db, work);
    });
  });

  it('runs a write alone when no other arrives in its turn of the event loop', async () => {
    expect(await group.write(record(1))).toBe(10);
    expect(alone).toBe(1);
    expect((await rows()).map(({ id }) => id)).toEqual([1]);
  });

  it('takes the writes of one turn of the event loop, the first included, into one transaction', async () => {
    const writes = [1, 2, 3].map((id) => group.write(record(id)));
    expect(await Promise.all(writes)).toEqual([10, 20, 30]);
    const written = await rows();
    expect(written.map(({ id }) => id)).toEqual([1, 2, 3]);
    expect(new Set(written.map(({ tx }) => tx)).size).toBe(1);
    expect(alone).toBe(0);
  });

  it('commits the writes that waited together in one transaction, each with its own answer', async () => {
    const { held, release } = await holding(group);
    const writes = [1, 2, 3, 4, 5].map((id) => group.write(record(id, { answeredLater: id % 2 === 0 })));
    release();
    expect(await held).toBe(0);
    expect(await Promise.all(writes)).toEqual([10, 20, 30, 40, 50]);
    const written = await rows();
    expect(written.map(({ id }) => id)).toEqual([0, 1, 2, 3, 4, 5]);
    const [first, ...waited] = written.map(({ tx }) => tx);
    expect(new Set(waited).size).toBe(1);
    expect(waited[0]).not.toBe(first);
    // Only the first ran alone; the five shared one transaction.
    expect(alone).toBe(1);
  });

  it('sees, in each write, what the writes before it in its group wrote', async () => {
    const { held, release } = await holding(group);
    const count = (trx: Transaction<Database>) =>
      sql<{ n: number }>`SELECT count(*)::int AS n FROM grouped`.execute(trx).then(({ rows: [row] }) => row?.n ?? -1);
    const writes = [1, 2, 3].map((id) =>
      group.write(async (trx) => {
        await record(id)(trx);
        return count(trx);
      }),
    );
    release();
    await held;
    expect(await Promise.all(writes)).toEqual([2, 3, 4]);
  });

  it('runs a group again until the write that failed is alone: the others are kept once, the failure is its own', async () => {
    const { held, release } = await holding(group);
    const writes = [
      group.write(record(1)),
      group.write(record(2, { answeredLater: true })),
      // The same key as the first: refused by the COMMIT (answered later).
      group.write(record(1, { answeredLater: true })),
      group.write(async (trx) => {
        await record(3)(trx);
        throw new Error('the handler refused');
      }),
      group.write(record(4)),
    ];
    release();
    await held;
    expect(await outcomes(writes)).toEqual([
      { value: 10 },
      { value: 20 },
      { failed: '23505' },
      { failed: 'the handler refused' },
      { value: 40 },
    ]);
    const written = await rows();
    expect(written.map(({ id }) => id)).toEqual([0, 1, 2, 4]);
    // The duplicate surfaced at the fourth write, which then ran alone, as did the fifth (the part after it). The
    // three before it failed again at their COMMIT and were halved: the first two committed together, the
    // duplicate alone.
    const tx = Object.fromEntries(written.map(({ id, tx }) => [id, tx]));
    expect(tx[1]).toBe(tx[2]);
    expect(new Set([tx[0], tx[1], tx[4]]).size).toBe(3);
    expect(alone).toBe(4);
  });

  it('runs a group again in parts when one write fails by itself: before it together, it alone, after it together', async () => {
    const { held, release } = await holding(group);
    const writes = [1, 2, 3, 4, 5, 6].map((id) =>
      group.write(async (trx) => {
        if (id === 4) throw new Error('not found');
        return record(id)(trx);
      }),
    );
    release();
    await held;
    expect(await outcomes(writes)).toEqual([
      { value: 10 },
      { value: 20 },
      { value: 30 },
      { failed: 'not found' },
      { value: 50 },
      { value: 60 },
    ]);
    const tx = Object.fromEntries((await rows()).map(({ id, tx }) => [id, tx]));
    expect(new Set([tx[1], tx[2], tx[3]]).size).toBe(1);
    expect(new Set([tx[5], tx[6]]).size).toBe(1);
    expect(tx[5]).not.toBe(tx[1]);
    // The held write, and the one that failed: no other write ran alone.
    expect(alone).toBe(2);
  });

  it('commits the others of a group together when the COMMIT names the write that failed, then takes half as many', async () => {
    const first = await holding(group);
    const writes = [1, 2, 3, 4, 5, 6].map((id) => group.write(record(id === 2 ? 0 : id, { answeredLater: true })));
    first.release();
    await first.held;
    expect(await outcomes(writes)).toEqual([
      { value: 10 },
      { failed: '23505' },
      { value: 30 },
      { value: 40 },
      { value: 50 },
      { value: 60 },
    ]);
    const tx = Object.fromEntries((await rows()).map(({ id, tx }) => [id, tx]));
    expect(new Set([tx[1], tx[3], tx[4], tx[5], tx[6]]).size).toBe(1);
    // The held write, and the one that failed, ran alone.
    expect(alone).toBe(2);

    // The failed group took six writes: the next groups take three, then four.
    const second = await holding(group, 10);
    const more = [11, 12, 13, 14, 15, 16, 17].map((id) => group.write(record(id)));
    second.release();
    await second.held;
    await Promise.all(more);
    const after = Object.fromEntries((await rows()).map(({ id, tx }) => [id, tx]));
    expect(new Set([after[11], after[12], after[13]]).size).toBe(1);
    expect(new Set([after[14], after[15], after[16], after[17]]).size).toBe(1);
    expect(after[14]).not.toBe(after[11]);
  });

  it('runs a group again when PostgreSQL refused its COMMIT for a statement its caller translated', async () => {
    const { held, release } = await holding(group);
    const first = group.write(record(1));
    const translated = group.write(async (trx) => {
      const { rows: inserted } = await sql`INSERT INTO grouped (id, tx) VALUES (1, 0)${ANSWERED_LATER_SQL}`.execute(
        trx,
      );
      answeredLaterOf(inserted)?.failsAs((error) => new Error('taken', { cause: error }));
      return 1;
    });
    release();
    await held;
    expect(await outcomes([first, translated])).toEqual([{ value: 10 }, { failed: 'taken' }]);
    expect((await rows()).map(({ id }) => id)).toEqual([0, 1]);
  });
});

describe('writes committed in groups: a COMMIT whose outcome is unknown', () => {
  it('is not run again: every write of the group gets its failure', async () => {
    const lost = new Error('Connection terminated unexpectedly');
    const committing = {
      transaction: () => ({
        execute: async (all: (trx: unknown) => Promise<unknown>) => {
          await all({});
          throw lost;
        },
      }),
    } as unknown as Kysely<Database>;
    const released = Promise.withResolvers<void>();
    const held = Promise.withResolvers<void>();
    const runs: string[] = [];
    const group = new GroupCommit(committing, 1, async <Result>(work: Work<Database, Result>) => {
      // The first write holds the one transaction; run again, a write would not wait.
      if (runs.push('alone') === 1) {
        held.resolve();
        await released.promise;
      }
      return work({} as Transaction<Database>);
    });
    const first = group.write(async () => 'first');
    await held.promise;
    const waited = ['a', 'b'].map((name) =>
      group.write(async () => {
        runs.push(name);
        return name;
      }),
    );
    released.resolve();
    expect(await first).toBe('first');
    for (const write of waited) await expect(write).rejects.toBe(lost);
    expect(runs).toEqual(['alone', 'a', 'b']);
  });
});
