import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { expect } from 'vitest';
import { openStore } from '../src/db/database.ts';
import { describeEngines, test, withoutDefaults } from './fixture.ts';
import type { ProductCreate } from './records.ts';

const CREATES = 30;

const digital = (name: string) => withoutDefaults<ProductCreate>({ name, type: 'DIGITAL', price: 10 });

describeEngines('concurrent writes', () => {
  test('createProduct sent 32 at once: each answered for itself (two with one name: one 201, one 409), every 201 read back', async ({
    api,
    server,
    tenant,
    engine,
  }) => {
    const names = [...Array.from({ length: CREATES }, (_, index) => `Caneca ${index}`), 'Caneca Gêmea', 'Caneca Gêmea'];
    const replies = await Promise.all(
      names.map((name) =>
        api.POST('/api/v1/products', {
          body: digital(name),
          params: { header: { 'Idempotency-Key': randomUUID() } },
        }),
      ),
    );
    expect(replies.map(({ response }) => response.status).sort()).toEqual([
      ...Array<number>(CREATES + 1).fill(201),
      409,
    ]);
    const clash = replies.find(({ response }) => response.status === 409);
    expect(clash?.error).toEqual({
      success: false,
      error: {
        message: 'Já existe um registro com este valor na loja.',
        code: 'DUPLICATE_ENTRY',
        details: [{ location: 'body', path: 'slug', reason: 'slug já utilizado: caneca-gemea' }],
      },
      meta: { status: 409, timestamp: expect.any(String) },
    });
    const created = replies.flatMap(({ data }) => (data ? [data.data.product] : []));
    for (const product of created) {
      const read = await api.GET('/api/v1/products/{productId}', { params: { path: { productId: product.id } } });
      expect(read.data?.data.product).toEqual({ ...product, variants: [] });
    }
    const listed = await api.GET('/api/v1/products', { params: { query: { limit: 100 } } });
    expect(listed.data?.data.pagination.total).toBe(CREATES + 1);

    if (engine !== 'postgres') return;
    // Rows a transaction wrote carry its id (xmin): under load the creates shared transactions (GroupCommit).
    const store = openStore(server.location);
    try {
      const { rows } = await sql<{ transactions: number }>`
        SELECT count(DISTINCT xmin::text)::int AS transactions FROM products WHERE store_id = ${tenant.storeId}`.execute(
        store.db,
      );
      expect(rows[0]?.transactions).toBeLessThan(CREATES + 1);
    } finally {
      await store.close();
    }
  });
});
