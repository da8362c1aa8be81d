import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, freshStore } from '../../test/harness.ts';
import { createRepositories, type Database } from '../resources/index.ts';
import type { Store } from './database.ts';

/** Rows of a products table for one store, inserted in one statement (a store that grew since start-up). */
const insertProducts = (storeId: string, from: number, count: number) => sql`
  INSERT INTO products (id, store_id, name, slug, type, status, price, currency, images, videos, documents, stock,
    track_inventory, description, featured, created_at, updated_at)
  SELECT gen_random_uuid()::text, ${storeId}, 'P' || g, 'p-' || g, 'PHYSICAL', 'ACTIVE', '10.00', 'BRL', '[]', '[]',
    '[]', 0, 0, '', 0, to_char(now() + g * interval '1 ms', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), now()::text
  FROM generate_series(${from}::int, ${from + count - 1}::int) AS g`;

/** Every node of a plan: its type, and the index it reads. */
const planNodes = (plan: Record<string, unknown>): string[] => [
  `${plan['Node Type']}${plan['Index Name'] ? ` using ${plan['Index Name']}` : ''}`,
  ...((plan.Plans as Record<string, unknown>[] | undefined) ?? []).flatMap(planNodes),
];

/** The plan a connection runs for its prepared statement whose text starts with `start`, for these values. */
async function planOf(connection: Kysely<Database>, start: string, values: readonly (string | number)[]) {
  const prepared = await sql<{ name: string }>`
    SELECT name FROM pg_prepared_statements WHERE statement LIKE ${`${start}%`}`.execute(connection);
  expect(prepared.rows).toHaveLength(1);
  const name = prepared.rows[0]?.name ?? '';
  expect(name).toMatch(/^sf_/);
  const explained = await sql<{ 'QUERY PLAN': [{ Plan: Record<string, unknown> }] }>`
    EXPLAIN (FORMAT JSON) EXECUTE ${sql.id(name)}(${sql.join(values.map((value) => sql.lit(value)))})`.execute(
    connection,
  );
  const plan = explained.rows[0]?.['QUERY PLAN'][0].Plan ?? {};
  return { nodes: planNodes(plan), text: JSON.stringify(plan) };
}

describe.runIf(engines.includes('postgres'))('prepared statements on postgres', () => {
  let store: Store;
  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ store, close } = await freshStore('postgres'));
  });
  afterAll(() => close());

  it('plans settled while a store holds one product still read by key once it holds 5,001; pages are never prepared', async () => {
    const storeId = randomUUID();
    await store.db.connection().execute(async (connection) => {
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
      // PostgreSQL settles on a prepared statement's plan after five executions, here while the store is this small.
      for (let read = 0; read < 10; read += 1) {
        expect(await repositories.products.getProductById(storeId, id)).toBeDefined();
        expect(await repositories.products.getProductByIdWithVariants(storeId, id)).toBeDefined();
        const listed = await repositories.products.listProducts(storeId, {}, { page: 1, limit: 20 });
        expect(listed.products).toHaveLength(1);
      }
      await insertProducts(storeId, 2, 5_000).execute(connection);

      const byId = await planOf(connection, 'select * from "products" where "store_id"', [storeId, id]);
      expect(byId.nodes).toEqual(['Index Scan using products_pkey']);
      // A generic plan, made once: its conditions name the parameters, not this execution's values.
      expect(byId.text).toContain('$2');
      const withVariants = await planOf(connection, 'select "products".*', [storeId, id]);
      expect(withVariants.nodes).toContain('Index Scan using products_pkey');
      expect(withVariants.nodes).toContain('Index Scan using product_variants_product');
      // A page is planned for its values every time: it has no prepared plan to keep.
      const paging = await sql<{ statement: string }>`
        SELECT statement FROM pg_prepared_statements WHERE statement LIKE '% limit $%'`.execute(connection);
      expect(paging.rows).toEqual([]);
    });
  });
});
