import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Store } from '../src/db/database.ts';
import { withServerOptions } from '../src/db/pg-connection-options.ts';
import { announce, type ListenHandlers, pgListener } from '../src/db/pg-listener.ts';
import { engines, freshStore, TEST_DATABASE_URL } from './harness.ts';

/** What a channel's handlers were told, in order. */
function recorder() {
  const told: string[] = [];
  const handlers: ListenHandlers = {
    notified: (payload) => told.push(`notified ${payload}`),
    hearing: (heard) => told.push(heard ? 'hearing' : 'deaf'),
    closed: () => told.push('closed'),
  };
  return { told, handlers };
}

describe.skipIf(!engines.includes('postgres'))('pgListener (PostgreSQL)', () => {
  let store: Store;
  let close: () => Promise<void>;
  const suffix = randomUUID().slice(0, 8);
  const channels = [`listener_a_${suffix}`, `listener_b_${suffix}`] as const;
  const notify = (channel: string, payload: string) => announce(store.db, channel, payload);
  /** The backends that listen on one of this test's channels (their sessions, seen from another). */
  const listening = () =>
    sql<{ pid: number }>`SELECT pid FROM pg_stat_activity WHERE query LIKE ${`LISTEN "listener_%_${suffix}"`}`
      .execute(store.db)
      .then(({ rows }) => rows.map((row) => row.pid));

  beforeAll(async () => {
    ({ store, close } = await freshStore('postgres'));
  });
  afterAll(() => close());

  it('hears every channel of its schema on one connection, and hears them all again after the connection is lost', async () => {
    const { rows } = await sql<{ name: string }>`SELECT current_schema() AS name`.execute(store.db);
    const listener = pgListener(withServerOptions(TEST_DATABASE_URL, `-c search_path=${rows[0]?.name}`));
    const [a, b] = [recorder(), recorder()];
    try {
      listener.listen(channels[0], a.handlers);
      listener.listen(channels[1], b.handlers);
      await vi.waitFor(() => expect([a.told, b.told]).toEqual([['hearing'], ['hearing']]));
      const backends = await listening();
      expect(backends).toHaveLength(1);

      // Sent first from another schema, and so (NOTIFYs of one session arrive in order) dropped before 'one'.
      await sql`SELECT pg_notify(${channels[0]}, 'another_schema elsewhere')`.execute(store.db);
      await notify(channels[0], 'one');
      await notify(channels[1], 'two');
      await vi.waitFor(() =>
        expect([a.told, b.told]).toEqual([
          ['hearing', 'notified one'],
          ['hearing', 'notified two'],
        ]),
      );

      await sql`SELECT pg_terminate_backend(${backends[0]}::int)`.execute(store.db);
      await vi.waitFor(() => expect(b.told).toEqual(['hearing', 'notified two', 'deaf', 'hearing']), {
        timeout: 5_000,
      });
      await notify(channels[0], 'three');
      await vi.waitFor(() => expect(a.told).toEqual(['hearing', 'notified one', 'deaf', 'hearing', 'notified three']));
    } finally {
      await listener.close();
    }
    expect([a.told.at(-1), b.told.at(-1)]).toEqual(['closed', 'closed']);
  });
});
