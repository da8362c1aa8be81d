import createClient from 'openapi-fetch';
import { describe, expect, it } from 'vitest';
import type { components, paths } from '../../generated/openapi.ts';
import { type Child, type ChildTenant, spawnServer, stopServer, tenantOn } from './child-server.ts';
import { clientOf, withoutDefaults } from './fixture.ts';
import { childLocation, createTenant, engines, startServer } from './harness.ts';

type ProductCreate = components['schemas']['ProductCreate'];
const product = withoutDefaults<ProductCreate>;

/** The product operations of a shop on a server process (the same shop on every restart). */
function productsOf(child: Child, shop: ChildTenant) {
  const api = createClient<paths>({ baseUrl: child.baseUrl, headers: { authorization: `Bearer ${shop.key}` } });
  const header = { 'X-Store-Id': shop.storeId };
  return {
    create: (idempotencyKey: string, body: ProductCreate) =>
      api.POST('/api/v1/products', { params: { header: { ...header, 'Idempotency-Key': idempotencyKey } }, body }),
    read: (productId: string) => api.GET('/api/v1/products/{productId}', { params: { header, path: { productId } } }),
    list: () => api.GET('/api/v1/products', { params: { header, query: { limit: 100 } } }),
  };
}

/**
 * Sends `count` requests at once and the process `signal` as soon as the first is answered, while the others are
 * still in flight: the answer to each request, or undefined where its connection was cut.
 */
async function interrupted<T>(
  child: Child,
  signal: NodeJS.Signals,
  count: number,
  send: (index: number) => Promise<T>,
): Promise<(T | undefined)[]> {
  let answered = 0;
  const requests = Array.from({ length: count }, async (_, index) => {
    const answer = await send(index);
    answered += 1;
    if (answered === 1) child.process.kill(signal);
    return answer;
  });
  const settled = await Promise.allSettled(requests);
  return settled.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : undefined));
}

// Each test starts servers whose first requests compile the contract's validators: seconds, not milliseconds.
describe.each(engines)('durability of the in-process server on %s', { timeout: 60_000 }, (engine) => {
  it('createProduct is kept across a restart on the same location (getProductById)', async () => {
    const first = await startServer({ engine });
    const tenant = await createTenant(first);
    const created = await clientOf(first, tenant).POST('/api/v1/products', {
      body: product({ name: 'Caderno Pautado', type: 'DIGITAL', price: 24.9, costPrice: 9.9 }),
    });
    expect(created.response.status).toBe(201);
    await first.close({ keepData: true });

    const second = await startServer({ engine, location: first.location });
    try {
      const read = await clientOf(second, tenant).GET('/api/v1/products/{productId}', {
        params: { path: { productId: created.data?.data.product.id ?? '' } },
      });
      expect(read.response.status).toBe(200);
      expect(read.data?.data.product).toEqual({ ...created.data?.data.product, variants: [] });
    } finally {
      await second.close();
    }
  });
});

describe.each(engines)('SIGTERM of the server process on %s', { timeout: 60_000 }, (engine) => {
  const storeEnv = childLocation(engine).env;

  it('loses no createProduct on SIGTERM during requests: every 201 is kept, retries complete the rest, exit 0', async () => {
    const first = await spawnServer(storeEnv);
    const shop = await tenantOn(first, 'Loja Durável');
    const bodyOf = (index: number) => product({ name: `Produto Durável ${index}`, type: 'DIGITAL', price: 10 + index });
    const create = (child: Child, index: number) => productsOf(child, shop).create(`duravel-${index}`, bodyOf(index));

    const answers = await interrupted(first, 'SIGTERM', 50, (index) => create(first, index));
    expect(await first.exited).toEqual({ code: 0, signal: null });

    // A connection the closing server had not yet accepted is refused (the client retries it); every request on
    // an accepted connection is answered, and nothing is cut off half-way by the store closing.
    const created = answers.filter((answer) => answer !== undefined);
    expect(created.length).toBeGreaterThan(0);
    for (const answer of created) expect(answer.response.status).toBe(201);

    const second = await spawnServer(storeEnv);
    try {
      const products = productsOf(second, shop);
      for (const answer of created) {
        const read = await products.read(answer.data?.data.product.id ?? '');
        expect(read.response.status).toBe(200);
        expect(read.data?.data.product).toEqual({ ...answer.data?.data.product, variants: [] });
      }
      // Retrying the refused ones with their Idempotency-Key completes the batch exactly once.
      for (const [index, answer] of answers.entries()) {
        if (answer === undefined) expect((await create(second, index)).response.status).toBe(201);
      }
      const list = await products.list();
      expect(list.data?.data.pagination.total).toBe(50);
      expect(new Set(list.data?.data.products.map((p) => p.name))).toEqual(
        new Set(Array.from({ length: 50 }, (_, index) => bodyOf(index).name)),
      );
    } finally {
      await stopServer(second);
    }
  });
});

// WAL with synchronous=NORMAL: a commit is in the WAL file (the OS's page cache) before the 201 is sent, so the death
// of the process loses nothing; only a power loss or OS crash may lose the last commits (see the README).
describe.each(engines)('kill -9 of the server process on %s', { timeout: 60_000 }, (engine) => {
  const storeEnv = childLocation(engine).env;

  it('keeps every acknowledged createProduct across kill -9 right after the 201s', async () => {
    const first = await spawnServer(storeEnv);
    const shop = await tenantOn(first, 'Loja Abrupta');
    const products = productsOf(first, shop);
    const acknowledged: components['schemas']['Product'][] = [];
    let killed = false;
    // Four writers in parallel; SIGKILL the moment the 20th 201 arrives, with writes still in flight.
    const writer = async (writerIndex: number) => {
      for (let index = 0; !killed; index += 1) {
        const body = product({ name: `Produto Abrupto ${writerIndex}-${index}`, type: 'DIGITAL', price: 5 + index });
        const answer = await products.create(`abrupta-${writerIndex}-${index}`, body).catch(() => undefined);
        if (answer === undefined) return;
        expect(answer.response.status).toBe(201);
        if (answer.data) acknowledged.push(answer.data.data.product);
        if (acknowledged.length >= 20 && !killed) {
          killed = true;
          first.process.kill('SIGKILL');
        }
      }
    };
    await Promise.all([0, 1, 2, 3].map(writer));
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(acknowledged.length).toBeGreaterThanOrEqual(20);

    const second = await spawnServer(storeEnv);
    try {
      for (const kept of acknowledged) {
        const read = await productsOf(second, shop).read(kept.id);
        expect(read.response.status).toBe(200);
        expect(read.data?.data.product).toEqual({ ...kept, variants: [] });
      }
    } finally {
      await stopServer(second);
    }
  });

  it('never leaves an Idempotency-Key of createProduct stuck after kill -9 under concurrent creates: each retry is 201 or the replay', async () => {
    const first = await spawnServer(storeEnv);
    const shop = await tenantOn(first, 'Loja Abatida');
    const total = 40;
    const bodyOf = (index: number) => product({ name: `Produto Abatido ${index}`, type: 'DIGITAL', price: 10 + index });
    const create = (child: Child, index: number) => productsOf(child, shop).create(`abatido-${index}`, bodyOf(index));

    // kill -9 at the first answer: no shutdown, the other requests die wherever they are.
    const before = await interrupted(first, 'SIGKILL', total, (index) => create(first, index));
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(before.filter((answer) => answer === undefined).length).toBeGreaterThan(0);

    const second = await spawnServer(storeEnv);
    try {
      const ids = new Set<string>();
      for (const [index, earlier] of before.entries()) {
        const retried = await create(second, index);
        expect(retried.response.status).toBe(201);
        if (earlier !== undefined) {
          expect(earlier.response.status).toBe(201);
          expect(retried.data).toEqual(earlier.data);
          expect(retried.response.headers.get('idempotent-replayed')).toBe('true');
        }
        expect(retried.data?.data.product.name).toBe(bodyOf(index).name);
        ids.add(retried.data?.data.product.id ?? '');
      }
      expect(ids.size).toBe(total);
      const list = await productsOf(second, shop).list();
      expect(list.data?.data.pagination.total).toBe(total);
      expect(new Set(list.data?.data.products.map((p) => p.id))).toEqual(ids);
    } finally {
      await stopServer(second);
    }
  });
});
