import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openStore } from '../src/db/database.ts';
import { engines, TEST_DATABASE_URL } from './harness.ts';

describe.skipIf(!engines.includes('postgres'))('PostgreSQL connections', () => {
  it('prepare a parameterised statement once and reuse it; a text without parameters runs unnamed', async () => {
    const store = openStore({ dataDir: mkdtempSync(path.join(tmpdir(), 'sf-pg-')), databaseUrl: TEST_DATABASE_URL });
    try {
      // One transaction holds one connection, so its prepared statements are the ones listed.
      const listed = await store.db.transaction().execute(async (trx) => {
        for (const value of [1, 2, 3]) {
          const { rows } = await sql<{ n: number }>`select ${value}::int + 1 as n`.execute(trx);
          expect(rows).toEqual([{ n: value + 1 }]);
        }
        await sql`select 1`.execute(trx);
        const { rows } = await sql<{
          statement: string;
        }>`select statement from pg_prepared_statements where statement like ${'select $1::int%'} or statement = ${'select 1'}`.execute(
          trx,
        );
        return rows.map((row) => row.statement);
      });
      expect(listed).toEqual(['select $1::int + 1 as n']);
    } finally {
      await store.close();
    }
  });
});
