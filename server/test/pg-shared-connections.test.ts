import { Socket } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { READ_CONNECTIONS, type Store } from '../src/db/database.ts';
import { engines, freshStore } from './harness.ts';
import { countSocketWrites } from './socket-writes.ts';

describe.skipIf(!engines.includes('postgres'))('reads on shared connections (PostgreSQL)', () => {
  let store: Store;
  let close: () => Promise<void>;
  const reads = () => {
    if (!store.reads) throw new Error('PostgreSQL reads on shared connections');
    return store.reads;
  };
  const read = (n: number) => sql<{ n: number }>`select ${n}::int as n`.execute(reads()).then(({ rows }) => rows);

  beforeAll(async () => {
    ({ store, close } = await freshStore('postgres'));
    // Every shared connection open, so that what is counted is the reads.
    await Promise.all(Array.from({ length: READ_CONNECTIONS }, (_, n) => read(n)));
  });
  afterAll(() => close());

  it('send the reads started in one turn together, one write per connection, each with its own answer', async () => {
    // Every socket of this process: the reads may leave on any of the shared connections.
    const writes = countSocketWrites(Socket.prototype);
    const result = await Promise.all(Array.from({ length: 20 }, (_, n) => read(n))).finally(() => writes.stop());
    expect(result).toEqual(Array.from({ length: 20 }, (_, n) => [{ n }]));
    expect(writes.count).toBeLessThanOrEqual(READ_CONNECTIONS);
  });

  it('fail a read alone: the others sent with it are answered', async () => {
    const outcomes = await Promise.allSettled([read(1), sql`select 1 / ${0}::int`.execute(reads()), read(3), read(4)]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ code: '22012' });
  });

  it('refuse a transaction, which would take in the other reads: writes run on the pool', async () => {
    await expect(
      reads()
        .transaction()
        .execute(async () => 1),
    ).rejects.toThrow(/connection of its own/);
    expect(await read(5)).toEqual([{ n: 5 }]);
  });

  it('replace a connection PostgreSQL ends, running again the reads it took with it', async () => {
    // The shared connections' last statement, by which PostgreSQL's activity view finds them.
    await Promise.all(Array.from({ length: READ_CONNECTIONS }, (_, n) => read(n)));
    const { rows: ended } = await sql<{ ended: boolean }>`select pg_terminate_backend(pid) as ended
      from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()
      and query like ${'select $1::int as n%'}`.execute(store.db);
    expect(ended.length).toBeGreaterThan(0);
    // A read sent on an ended connection runs again on a new one: none of them fails.
    expect(await Promise.all([6, 7, 8, 9].map(read))).toEqual([[{ n: 6 }], [{ n: 7 }], [{ n: 8 }], [{ n: 9 }]]);
    expect(await Promise.all([read(10), read(11)])).toEqual([[{ n: 10 }], [{ n: 11 }]]);
  });
});
