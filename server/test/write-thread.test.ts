import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationId } from '../src/contract.ts';
import type { OperationCall } from '../src/http/routes.ts';
import type { WriteThread } from '../src/write-thread.ts';
import { createTenant, rawRequest, startServer, type Tenant, type TestServer } from './harness.ts';

/** A createProduct body: the name decides the slug, which must be new in the store. */
const productBody = (name: string) => ({ name, type: 'DIGITAL', status: 'ACTIVE', price: 49.9 });

// The whole 409 envelope of a duplicate slug, as each thread answers it (checked against the request thread below).
const duplicateOf = (slug: string) => ({
  success: false,
  error: {
    message: 'Já existe um registro com este valor na loja.',
    code: 'DUPLICATE_ENTRY',
    details: [{ location: 'body', path: 'slug', reason: `slug já utilizado: ${slug}` }],
  },
  meta: { timestamp: expect.any(String), status: 409 },
});

/** A server on the embedded store, and the write thread its writes go through. */
async function serverWithThread(
  env: Record<string, string> = {},
): Promise<{ server: TestServer; thread: WriteThread }> {
  const server = await startServer({ engine: 'sqlite', env });
  if (!server.writeThread) throw new Error('the embedded store started without its write thread');
  return { server, thread: server.writeThread };
}

// The embedded store's writes run on a thread of their own (server/src/write-thread.ts); every other suite runs its
// embedded-store writes through it too. These tests prove what only the thread has: that writes do go through it,
// what a failure on it becomes, and that the request thread takes over once it has stopped.
describe('the embedded store’s write thread', () => {
  let server: TestServer;
  let tenant: Tenant;
  let thread: WriteThread;
  const calls: OperationId[] = [];

  beforeAll(async () => {
    ({ server, thread } = await serverWithThread());
    // The routes call the thread through this same object: counting here counts what they hand over.
    const run = thread.run.bind(thread);
    thread.run = (call: OperationCall) => {
      calls.push(call.operationId);
      return run(call);
    };
    tenant = await createTenant(server);
  });
  afterAll(() => server.close());

  const create = (name: string, idempotencyKey?: string) =>
    rawRequest(server.baseUrl, 'POST', '/api/v1/products', {
      headers: {
        ...tenant.headers,
        'content-type': 'application/json',
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      },
      body: JSON.stringify(productBody(name)),
    });
  const read = (id: string) => rawRequest(server.baseUrl, 'GET', `/api/v1/products/${id}`, { headers: tenant.headers });
  const productOf = (body: unknown) => (body as { data: { product: { id: string; name: string } } }).data.product;

  it('runs each write, and what it wrote is read back at once on the request thread', async () => {
    calls.length = 0;
    const created = await create('Caneca Azul');
    expect(created.status).toBe(201);
    expect(calls).toEqual(['createProduct']);
    const product = productOf(created.body);
    const got = await read(product.id);
    expect(got.status).toBe(200);
    expect(productOf(got.body)).toEqual({ ...product, variants: [] });
    expect(calls).toEqual(['createProduct']);
  });

  it('answers an API error raised on the thread with its documented envelope', async () => {
    calls.length = 0;
    expect((await create('Caneca Verde')).status).toBe(201);
    const duplicate = await create('Caneca Verde');
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toEqual(duplicateOf('caneca-verde'));
    expect(calls).toEqual(['createProduct', 'createProduct']);
  });

  it('answers writes sent at once each with its own outcome: a conflict among them undoes only itself', async () => {
    calls.length = 0;
    const [unique, twins, keyed] = await Promise.all([
      Promise.all(Array.from({ length: 8 }, (_, index) => create(`Caneca Junta ${index}`))),
      Promise.all([create('Caneca Gêmea'), create('Caneca Gêmea')]),
      Promise.all([create('Caneca Chave', 'junta'), create('Caneca Chave', 'junta')]),
    ]);
    expect(calls).toHaveLength(12);
    expect(unique.map((response) => response.status)).toEqual(Array(8).fill(201));
    expect(twins.map((response) => response.status).sort()).toEqual([201, 409]);
    expect(twins.find((response) => response.status === 409)?.body).toEqual(duplicateOf('caneca-gemea'));
    expect(keyed.map((response) => response.status)).toEqual([201, 201]);
    expect(keyed.map((response) => response.headers.get('idempotent-replayed')).sort()).toEqual([null, 'true']);
    expect(keyed[1]?.body).toEqual(keyed[0]?.body);
    const created = [...unique, ...twins.filter((response) => response.status === 201), keyed[0]];
    for (const response of created) {
      const product = productOf(response?.body);
      expect(productOf((await read(product.id)).body)).toEqual({ ...product, variants: [] });
    }
  });

  it('rejects a call that fails otherwise with the error raised on the thread, its stack included', async () => {
    const call = { operationId: 'noSuchOperation', input: { storeId: tenant.storeId }, idempotencyKey: undefined };
    const failure = await thread.run(call as unknown as OperationCall).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).name).toBe('TypeError');
    expect((failure as Error).stack).toContain('write-thread-entry.ts');
  });

  it('hands the writes to the request thread once it has stopped: the same answers, nothing lost', async () => {
    await thread.stop();
    expect(thread.running()).toBe(false);
    calls.length = 0;
    const created = await create('Caneca Amarela');
    expect(created.status).toBe(201);
    expect(calls).toEqual([]);
    const got = await read(productOf(created.body).id);
    expect(productOf(got.body)).toEqual({ ...productOf(created.body), variants: [] });
    // What the thread wrote before it stopped is there for the request thread's writes too.
    const duplicate = await create('Caneca Verde');
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toEqual(duplicateOf('caneca-verde'));
    expect(calls).toEqual([]);
  });
});

// As `npm start` runs it (responses not checked against the contract), the thread sends each reply's body as the
// JSON text it made, and the request thread sends that text as it is. The same exchanges as the request thread's
// own replies: status, Content-Type, body, the replay's header.
describe('the write thread’s replies as JSON text (VALIDATE_RESPONSES=false)', () => {
  let server: TestServer;
  let tenant: Tenant;
  let thread: WriteThread;
  const replies: unknown[] = [];

  beforeAll(async () => {
    ({ server, thread } = await serverWithThread({ VALIDATE_RESPONSES: 'false' }));
    const run = thread.run.bind(thread);
    thread.run = async (call: OperationCall) => {
      const reply = await run(call);
      replies.push(reply);
      return reply;
    };
    tenant = await createTenant(server);
  });
  afterAll(() => server.close());

  const exchange = async (method: string, urlPath: string, body?: object, key?: string) => {
    const response = await fetch(server.baseUrl + urlPath, {
      method,
      headers: {
        ...tenant.headers,
        ...(body ? { 'content-type': 'application/json' } : {}),
        ...(key ? { 'idempotency-key': key } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return {
      status: response.status,
      contentType: response.headers.get('content-type'),
      replayed: response.headers.get('idempotent-replayed'),
      text: await response.text(),
    };
  };
  const product = productBody('Caneca Lilás');

  it('answers a create, its replay and a delete as the request thread would, from the text the thread made', async () => {
    replies.length = 0;
    const created = await exchange('POST', '/api/v1/products', product, 'caneca-lilas');
    expect(created).toMatchObject({ status: 201, contentType: 'application/json; charset=utf-8', replayed: null });
    expect(replies).toEqual([{ status: 201, json: created.text }]);
    const { id } = (JSON.parse(created.text) as { data: { product: { id: string } } }).data.product;
    const read = await exchange('GET', `/api/v1/products/${id}`);
    const readProduct = (JSON.parse(read.text) as { data: { product: object } }).data.product;
    expect(JSON.parse(created.text)).toEqual({
      success: true,
      data: { product: { ...readProduct, variants: undefined } },
    });

    const replay = await exchange('POST', '/api/v1/products', product, 'caneca-lilas');
    expect(replay).toEqual({ ...created, replayed: 'true' });

    const deleted = await exchange('DELETE', `/api/v1/products/${id}`);
    expect(deleted).toEqual({
      status: 200,
      contentType: 'application/json; charset=utf-8',
      replayed: null,
      text: JSON.stringify({ success: true, data: { id, deleted: true } }),
    });
    expect(replies).toEqual([...replies.slice(0, 2), { status: 200, json: deleted.text }]);
    expect((await exchange('GET', `/api/v1/products/${id}`)).status).toBe(404);
  });

  it('answers an API error raised on the thread with its documented envelope', async () => {
    expect((await exchange('POST', '/api/v1/products', productBody('Caneca Rosa'))).status).toBe(201);
    const duplicate = await exchange('POST', '/api/v1/products', productBody('Caneca Rosa'));
    expect(duplicate).toMatchObject({ status: 409, contentType: 'application/json; charset=utf-8' });
    expect(JSON.parse(duplicate.text)).toEqual(duplicateOf('caneca-rosa'));
  });
});
