// Behaviour the contract cannot express as a schema, written by hand. Each test names the operation it is
// about, the rule, and what the target must be able to do (its capabilities); it acts on records of its own
// with unique values and reads the new state back through the API.
import { randomUUID } from 'node:crypto';
import { isObject, type Json, type JsonObject } from './contract.ts';
import { expectResponse } from './generic.ts';
import type { Exchange } from './http.ts';
import { type Capability, Failure, type Session } from './session.ts';
import { randomText } from './values.ts';

export interface BehaviourTest {
  operationId: string;
  rule: string;
  needs: Capability[];
  run(s: Session): Promise<void>;
}

const data = (json: unknown): JsonObject => (isObject(json) && isObject(json.data) ? json.data : {});

function assert(condition: unknown, message: string, exchange?: Exchange): asserts condition {
  if (!condition) throw new Failure(message, exchange);
}

/** A unique product body built from the contract's example. */
async function productBody(s: Session, name = `Conformance ${randomText(10)}`): Promise<JsonObject> {
  const { body } = await s.validRequest(s.operation('createProduct'));
  return { ...(body as JsonObject), name, sku: null, barcode: null };
}

async function createProduct(s: Session, body: JsonObject, headers: Record<string, string> = {}) {
  const op = s.operation('createProduct');
  const auth = await s.authHeaders(op);
  return expectResponse(s, op, 'create product', { headers: { ...auth, ...headers }, body }, { status: 201 });
}

/** Finds records of a list operation whose `search` matches. */
async function search(s: Session, operationId: string, text: string, headers?: Record<string, string>) {
  const op = s.operation(operationId);
  const exchange = await expectResponse(
    s,
    op,
    'list',
    { headers: headers ?? (await s.authHeaders(op)), query: { search: text } },
    { status: 200 },
  );
  const list = Object.values(data(exchange.response.json)).find(Array.isArray) as JsonObject[] | undefined;
  return { exchange, items: list ?? [] };
}

export const behaviourTests: BehaviourTest[] = [
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
  {
    operationId: 'createWebhook',
    rule: 'the webhook secret is never returned (create, read, list, update), hasSecret says it is set',
    needs: ['state'],
    async run(s) {
      const op = s.operation('createWebhook');
      const request = await s.validRequest(op);
      const secret = `whsec_${randomText(32)}`; // the contract's form: whsec_ and the base64 of 24 bytes
      const created = await expectResponse(
        s,
        op,
        'create with a secret',
        { ...request, body: { ...(request.body as JsonObject), secret } },
        { status: 201 },
      );
      const webhook = data(created.response.json).webhook as JsonObject;
      const leaks = (text: string) => text.includes(secret) || /"secret"\s*:/.test(text);
      assert(!leaks(created.response.body), 'createWebhook — the response returns the secret', created);
      assert(webhook.hasSecret === true, 'createWebhook — hasSecret is not true after setting a secret', created);
      const reads: [string, JsonObject | undefined, Record<string, string> | undefined][] = [
        ['getWebhookById', { webhookId: String(webhook.id) }, undefined],
        ['listWebhooks', undefined, undefined],
        ['updateWebhook', { webhookId: String(webhook.id) }, undefined],
      ];
      for (const [operationId, pathParams] of reads) {
        const read = s.operation(operationId);
        const body = read.method === 'patch' ? { name: `Conformance ${randomText(6)}` } : undefined;
        const exchange = await expectResponse(
          s,
          read,
          'the secret is never returned',
          {
            headers: await s.authHeaders(read),
            pathParams: (pathParams ?? {}) as Record<string, string>,
            ...(body ? { body } : {}),
          },
          { success: true },
        );
        assert(!leaks(exchange.response.body), `${operationId} — the response returns the webhook secret`, exchange);
      }
    },
  },
  {
    operationId: 'createAutomation',
    rule: 'automations are created inactive, and PATCH active: true switches them on',
    needs: ['state'],
    async run(s) {
      const op = s.operation('createAutomation');
      const request = await s.validRequest(op);
      const created = await expectResponse(s, op, 'created inactive', request, { status: 201 });
      const automation = data(created.response.json).automation as JsonObject;
      assert(
        automation.active === false,
        `createAutomation — a new automation has active: ${JSON.stringify(automation.active)}`,
        created,
      );
      const get = s.operation('getAutomationById');
      const read = await expectResponse(
        s,
        get,
        'read back inactive',
        { headers: await s.authHeaders(get), pathParams: { automationId: String(automation.id) } },
        { status: 200 },
      );
      assert(
        (data(read.response.json).automation as JsonObject).active === false,
        'getAutomationById — the automation read back is active',
        read,
      );
      const update = s.operation('updateAutomation');
      const patched = await expectResponse(
        s,
        update,
        'switch on',
        {
          headers: await s.authHeaders(update),
          pathParams: { automationId: String(automation.id) },
          body: { active: true },
        },
        { status: 200 },
      );
      assert(
        (data(patched.response.json).automation as JsonObject).active === true,
        'updateAutomation — active: true did not switch the flow on',
        patched,
      );
    },
  },
  {
    operationId: 'validateAutomation',
    rule: 'validating an automation stores nothing and echoes active: false',
    needs: ['state'],
    async run(s) {
      const list = s.operation('listAutomations');
      const total = async () => {
        const exchange = await expectResponse(
          s,
          list,
          'count',
          { headers: await s.authHeaders(list) },
          { status: 200 },
        );
        return Number((data(exchange.response.json).pagination as JsonObject | undefined)?.total ?? Number.NaN);
      };
      const before = await total();
      const op = s.operation('validateAutomation');
      const request = await s.validRequest(op);
      const name = `Conformance ${randomText(8)}`;
      const validated = await expectResponse(
        s,
        op,
        'validate',
        { ...request, body: { ...(request.body as JsonObject), name } },
        { status: 200 },
      );
      assert(
        (data(validated.response.json).automation as JsonObject | undefined)?.active === false,
        'validateAutomation — the echoed automation is not active: false',
        validated,
      );
      const after = await total();
      assert(
        before === after,
        `listAutomations — validate stored an automation (total ${before} → ${after})`,
        s.http.last,
      );
    },
  },
  {
    operationId: 'getProductById',
    rule: 'store isolation: another store’s product answers 404 and is not listed',
    needs: ['state', 'admin'],
    async run(s) {
      const other = s.otherStoreId as string;
      const body = await productBody(s);
      const product = data((await createProduct(s, body)).response.json).product as JsonObject;
      const key = await s.createKey([s.storeId, other]);
      const headers = { authorization: `Bearer ${key}`, 'x-store-id': other };
      const op = s.operation('getProductById');
      await expectResponse(
        s,
        op,
        'another store’s id → 404',
        { headers, pathParams: { productId: String(product.id) } },
        { status: 404, codes: ['RESOURCE_NOT_FOUND'] },
      );
      const { items, exchange } = await search(s, 'listProducts', String(body.name), headers);
      assert(items.length === 0, 'listProducts — another store lists this store’s product', exchange);
      const update = s.operation('updateProduct');
      await expectResponse(
        s,
        update,
        'another store’s id → 404',
        { headers, pathParams: { productId: String(product.id) }, body: { name: 'Conformance intruder' } },
        { status: 404 },
      );
    },
  },
  {
    operationId: 'createProduct',
    rule: 'scope denial: a products:read key lists but cannot create (403 AUTH_SCOPE_DENIED); a revoked key → 401',
    needs: ['state', 'admin'],
    async run(s) {
      const data0 = await s.adminCall(
        'createApiKey',
        {},
        { name: 'conformance read-only', storeIds: [s.storeId], scopes: ['products:read'] },
      );
      const apiKey = data0.apiKey as JsonObject;
      const headers = { authorization: `Bearer ${String(apiKey.key)}`, 'x-store-id': s.storeId };
      const list = s.operation('listProducts');
      await expectResponse(s, list, 'read scope lists', { headers }, { status: 200 });
      const create = s.operation('createProduct');
      await expectResponse(
        s,
        create,
        'no write scope → 403',
        { headers, body: (await productBody(s)) as Json },
        { status: 403, codes: ['AUTH_SCOPE_DENIED'] },
      );
      const revoke = s.operation('revokeApiKey');
      await expectResponse(
        s,
        revoke,
        'revoke',
        { headers: { authorization: `Bearer ${s.options.adminToken}` }, pathParams: { apiKeyId: String(apiKey.id) } },
        { status: 204 },
      );
      await expectResponse(
        s,
        list,
        'revoked key → 401',
        { headers },
        { status: 401, codes: ['AUTH_API_KEY_REQUIRED'] },
      );
    },
  },
];
