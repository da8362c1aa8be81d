import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, freshStore } from '../../test/harness.ts';
import { createRepositories } from '../resources/index.ts';
import type { Store } from './database.ts';

/** Rows of a products table for one store, inserted in one statement (a store that grew since start-up). */
const insertProducts = (storeId: string, from: number, count: number) => sql`
  INSERT INTO products (id, store_id, name, slug, type, status, price, currency, images, videos, documents, stock,
    track_inventory, description, featured, created_at, updated_at)
  SELECT gen_random_uuid()::text, ${storeId}, 'P' || g, 'p-' || g, 'PHYSICAL', 'ACTIVE', '10.00', 'BRL', '[]', '[]',
    '[]', 0, 0, '', 0, to_char(now() + g * interval '1 ms', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), now()::text
  FROM generate_series(${from}::int, ${from + count - 1}::int) AS g`;

const planNodes = (plan: Record<string, unknown>): string[] => [
  `${plan['Node Type']}${plan['Index Name'] ? ` using ${plan['Index Name']}` : ''}`,
  ...((plan.Plans as Record<string, unknown>[] | undefined) ?? []).flatMap(planNodes),
];

describe.runIf(engines.includes('postgres'))('prepared statements on postgres', () => {
  let store: Store;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ store, close } = await freshStore('postgres'));
  });
  afterAll(() => close());

  it('getProductById keeps reading by primary key after the store grows from 1 to 5,000 products on one connection', async () => {
    const storeId = randomUUID();
    const nodes = await store.db.connection().execute(async (connection) => {
      const repositories = createRepositories(connection, 'postgres');
      await repositories.stores.createStore({
        id: storeId,
        name: 'Loja',
        currency: 'BRL',
        createdAt: '2026-01-01T00:00:00.000Z',
      });
      await insertProducts(storeId, 1, 1).execute(connection);
      const { rows } = await sql<{ id: string }>`SELECT id FROM products WHERE store_id = ${storeId}`.execute(
        connection,
      );
      const id = rows[0]?.id ?? '';
      // PostgreSQL settles on a prepared statement's plan after five executions.
      for (let read = 0; read < 10; read += 1)
        expect(await repositories.products.getProductById(storeId, id)).toBeDefined();
      await insertProducts(storeId, 2, 5_000).execute(connection);
      const prepared = await sql<{ name: string }>`
        SELECT name FROM pg_prepared_statements WHERE statement LIKE 'select * from "products" where%'`.execute(
        connection,
      );
      const name = prepared.rows[0]?.name;
      expect(name).toMatch(/^sf_/);
      const explained = await sql<{ 'QUERY PLAN': [{ Plan: Record<string, unknown> }] }>`
        EXPLAIN (FORMAT JSON) EXECUTE ${sql.id(name ?? '')}(${sql.lit(storeId)}, ${sql.lit(id)})`.execute(connection);
      return planNodes(explained.rows[0]?.['QUERY PLAN'][0].Plan ?? {});
    });
    expect(nodes).toEqual(['Index Scan using products_pkey']);
  });
});
