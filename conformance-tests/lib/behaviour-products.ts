// Behaviour of products the contract cannot express as a schema: read-back, slug collision, idempotent replay,
// variants only on the by-id read.
import { randomUUID } from 'node:crypto';
import { assert, type BehaviourTest, createProduct, data, productBody, search } from './behaviour-kit.ts';
import { isObject, type JsonObject } from './contract.ts';
import { expectResponse } from './expect.ts';
import { randomText } from './values.ts';

export const productBehaviour: BehaviourTest[] = [
  {
    operationId: 'createProduct',
    rule: 'create then read back: the same values by id and in the list, with the slug from the name',
    needs: ['state'],
    async run(s) {
      const body = await productBody(s);
      const created = await createProduct(s, body);
      const product = data(created.response.json).product as JsonObject;
      const headers = await s.authHeaders(s.operation('getProductById'));
      // the typed client, as a partner would use it
      const { data: read, response } = await s.http.client.GET('/api/v1/products/{productId}', {
        params: { path: { productId: String(product.id) }, header: { 'X-Store-Id': s.storeId } },
        headers,
      });
      assert(
        response.status === 200 && read,
        `getProductById — read after create: expected 200, got ${response.status}`,
        s.http.last,
      );
      const got = read.data.product;
      for (const field of ['name', 'price', 'type', 'status'] as const) {
        assert(
          got[field] === body[field],
          `getProductById — read after create: ${field} is ${JSON.stringify(got[field])}, created with ${JSON.stringify(body[field])}`,
          s.http.last,
        );
      }
      assert(
        got.slug === product.slug && typeof got.slug === 'string' && got.slug.length > 0,
        'getProductById — the slug differs from the one answered at create',
        s.http.last,
      );
      const { items, exchange } = await search(s, 'listProducts', String(body.name));
      assert(
        items.some((item) => item.id === product.id),
        'listProducts — a created product is missing from the list',
        exchange,
      );
    },
  },
  {
    operationId: 'createProduct',
    rule: 'slug collision: a second product with the same name → 409 DUPLICATE_ENTRY, nothing created',
    needs: ['state'],
    async run(s) {
      const body = await productBody(s);
      await createProduct(s, body);
      const op = s.operation('createProduct');
      await expectResponse(
        s,
        op,
        'slug collision → 409',
        { headers: await s.authHeaders(op), body: { ...body, price: Number(body.price) + 1 } },
        { status: 409, codes: ['DUPLICATE_ENTRY'] },
      );
      const { items, exchange } = await search(s, 'listProducts', String(body.name));
      assert(
        items.length === 1,
        `listProducts — after a 409 there are ${items.length} products with the name`,
        exchange,
      );
    },
  },
  {
    operationId: 'createProduct',
    rule: 'idempotent replay: same key and body → same product, Idempotent-Replayed: true, nothing created; another body → 422',
    needs: ['state'],
    async run(s) {
      const body = await productBody(s);
      const key = `conformance-${randomUUID()}`;
      const first = await createProduct(s, body, { 'idempotency-key': key });
      assert(
        first.response.headers['idempotent-replayed'] === undefined,
        'createProduct — idempotent replay: the first request carries Idempotent-Replayed',
        first,
      );
      const second = await createProduct(s, body, { 'idempotency-key': key });
      assert(
        second.response.headers['idempotent-replayed'] === 'true',
        'createProduct — idempotent replay: the replay lacks Idempotent-Replayed: true',
        second,
      );
      const a = data(first.response.json).product as JsonObject;
      const b = data(second.response.json).product as JsonObject;
      assert(
        a.id === b.id,
        `createProduct — idempotent replay: the replay answered another product (${String(b.id)} instead of ${String(a.id)})`,
        second,
      );
      const { items, exchange } = await search(s, 'listProducts', String(body.name));
      assert(items.length === 1, `listProducts — a replay created a product (${items.length} found)`, exchange);
      const op = s.operation('createProduct');
      await expectResponse(
        s,
        op,
        'idempotency key with another body → 422',
        {
          headers: { ...(await s.authHeaders(op)), 'idempotency-key': key },
          body: { ...body, name: `${String(body.name)} 2` },
        },
        { status: 422, codes: ['IDEMPOTENCY_KEY_MISMATCH'] },
      );
    },
  },
  {
    operationId: 'getProductById',
    rule: 'variants appear only on the by-id read',
    needs: ['state', 'admin'],
    async run(s) {
      const body = await productBody(s);
      const created = data((await createProduct(s, body)).response.json).product as JsonObject;
      assert(!('variants' in created), 'createProduct — the create response carries variants');
      const variant = await s.adminCall(
        'createVariant',
        { productId: String(created.id) },
        { title: `Conformance ${randomText(4)}`, stock: 3 },
      );
      const byId = s.operation('getProductById');
      const read = await expectResponse(
        s,
        byId,
        'variants on the by-id read',
        { headers: await s.authHeaders(byId), pathParams: { productId: String(created.id) } },
        { status: 200 },
      );
      const variants = (data(read.response.json).product as JsonObject).variants;
      assert(
        Array.isArray(variants) && variants.some((v) => isObject(v) && v.id === (variant.variant as JsonObject).id),
        'getProductById — the variant created is not in variants',
        read,
      );
      const { items, exchange } = await search(s, 'listProducts', String(body.name));
      assert(
        items.length === 1 && !('variants' in (items[0] as object)),
        'listProducts — a list item carries variants',
        exchange,
      );
      const update = s.operation('updateProduct');
      const patched = await expectResponse(
        s,
        update,
        'no variants on update',
        {
          headers: await s.authHeaders(update),
          pathParams: { productId: String(created.id) },
          body: { status: 'PUBLISHED' },
        },
        { status: 200 },
      );
      assert(
        !('variants' in (data(patched.response.json).product as object)),
        'updateProduct — the update response carries variants',
        patched,
      );
    },
  },
];
