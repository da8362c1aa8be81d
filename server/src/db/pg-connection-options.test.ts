import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { engines, TEST_DATABASE_URL } from '../../test/harness.ts';
import { openStore } from './database.ts';
import { withServerOptions } from './pg-connection-options.ts';

describe('PostgreSQL connection options', () => {
  it("adds the server's settings after a DATABASE_URL's own options, and leaves a URL without options as it is", () => {
    expect(
      withServerOptions(
        'postgres://u@db.example:5432/shop?options=-c%20statement_timeout%3D5000&sslmode=require',
        '-c a=1',
      ),
    ).toEqual({
      connectionString: 'postgres://u@db.example:5432/shop?sslmode=require',
      options: '-c statement_timeout=5000 -c a=1',
    });
    const socket = 'postgres://postgres@%2Fvar%2Frun%2Fpostgresql/test';
    expect(withServerOptions(socket, '-c a=1')).toEqual({ connectionString: socket, options: '-c a=1' });
  });

  it.skipIf(!engines.includes('postgres'))(
    'keeps DATABASE_SCHEMA and the plan settings when DATABASE_URL sets options of its own, on the pool and the shared reads',
    async () => {
      const url = new URL(TEST_DATABASE_URL);
      url.searchParams.set('options', '-c statement_timeout=4321');
      const store = openStore({ databaseUrl: url.toString(), databaseSchema: 'options_kept', dataDir: '' });
      try {
        for (const db of [store.db, store.reads ?? store.db]) {
          const settings = await sql<{ path: string; timeout: string; seqscan: string }>`
            SELECT current_setting('search_path') AS path, current_setting('statement_timeout') AS timeout,
              current_setting('enable_seqscan') AS seqscan`.execute(db);
          expect(settings.rows).toEqual([{ path: 'options_kept', timeout: '4321ms', seqscan: 'off' }]);
        }
      } finally {
        await store.close();
      }
    },
  );
});
