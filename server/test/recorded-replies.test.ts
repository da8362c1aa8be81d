import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { describeEngines, test } from './fixture.ts';

// As `npm start` runs it (responses not checked against the contract), a keyed write is answered with the JSON text
// recorded for its key, made once (http/idempotency.ts), and so is its replay: the same bytes, the replay marked.
// On the embedded store the write thread makes the text, on PostgreSQL the request thread.
describeEngines(
  'keyed writes answered from the text recorded for their key',
  () => {
    test('a keyed createProduct and its replay answer the same JSON text, which reads back as the product', async ({
      server,
      tenant,
      api,
    }) => {
      const key = randomUUID();
      const create = async () => {
        const response = await fetch(`${server.baseUrl}/api/v1/products`, {
          method: 'POST',
          headers: { ...tenant.headers, 'content-type': 'application/json', 'idempotency-key': key },
          body: JSON.stringify({ name: 'Caneca Anil', type: 'DIGITAL', price: 10, status: 'ACTIVE' }),
        });
        return {
          status: response.status,
          contentType: response.headers.get('content-type'),
          replayed: response.headers.get('idempotent-replayed'),
          text: await response.text(),
        };
      };
      const created = await create();
      expect(created).toMatchObject({ status: 201, contentType: 'application/json; charset=utf-8', replayed: null });
      expect(await create()).toEqual({ ...created, replayed: 'true' });
      const { product } = (JSON.parse(created.text) as { data: { product: { id: string } } }).data;
      const read = await api.GET('/api/v1/products/{productId}', { params: { path: { productId: product.id } } });
      expect(JSON.parse(created.text)).toEqual({
        success: true,
        data: { product: { ...read.data?.data.product, variants: undefined } },
      });
    });
  },
  { env: { VALIDATE_RESPONSES: 'false' } },
);
