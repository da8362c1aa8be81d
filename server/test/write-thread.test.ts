import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationId } from '../src/contract.ts';
import type { OperationCall } from '../src/http/routes.ts';
import type { WriteThread } from '../src/write-thread.ts';
import { createTenant, rawRequest, startServer, type Tenant, type TestServer } from './harness.ts';

// The embedded store's writes run on a thread of their own (server/src/write-thread.ts); every other suite runs its
// embedded-store writes through it too. These tests prove what only the thread has: that writes do go through it,
// what a failure on it becomes, and that the request thread takes over once it has stopped.
describe('the embedded store’s write thread', () => {
  let server: TestServer;
  let tenant: Tenant;
  let thread: WriteThread;
  const calls: OperationId[] = [];

  beforeAll(async () => {
    server = await startServer({ engine: 'sqlite' });
    if (!server.writeThread) throw new Error('the embedded store started without its write thread');
    thread = server.writeThread;
    // The routes call the thread through this same object: counting here counts what they hand over.
    const run = thread.run.bind(thread);
    thread.run = (call: OperationCall) => {
      calls.push(call.operationId);
      return run(call);
    };
    tenant = await createTenant(server);
  });
  afterAll(() => server.close());

  const create = (name: string) =>
    rawRequest(server.baseUrl, 'POST', '/api/v1/products', {
      headers: { ...tenant.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name, type: 'DIGITAL', status: 'ACTIVE', price: 49.9 }),
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

  it('answers an API error raised on the thread with its documented envelope', async () => {
    calls.length = 0;
    expect((await create('Caneca Verde')).status).toBe(201);
    const duplicate = await create('Caneca Verde');
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toEqual(duplicateOf('caneca-verde'));
    expect(calls).toEqual(['createProduct', 'createProduct']);
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
