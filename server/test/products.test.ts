import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminHeaders, call, createTenant, engines, startServer, type Tenant, type TestServer } from './harness.ts';

const physical = {
  name: 'Camiseta Básica Algodão',
  type: 'PHYSICAL',
  price: 79.9,
  discountedPrice: 59.9,
  media: { images: ['https://cdn.example.com/a.jpg', 'https://cdn.example.com/b.jpg'] },
  stock: { quantity: 12, trackInventory: true },
  logistics: { height: 4, width: 25, length: 30, weight: 0.25 },
  sku: 'CAM-1',
  costPrice: 19.9,
};

describe.each(engines)('products on %s', (engine) => {
  let server: TestServer;
  let tenant: Tenant;
  let other: Tenant;
  const v1 = (method: string, path: string, body?: unknown, who: Tenant = tenant, extra: Record<string, string> = {}) =>
    call(server.baseUrl, method, path, {
      headers: { ...who.headers, ...extra },
      ...(body !== undefined ? { body } : {}),
    });

  beforeAll(async () => {
    server = await startServer({ engine });
    tenant = await createTenant(server);
    other = await createTenant(server);
  });
  afterAll(() => server.close());

  it('creates a product (201), derives the slug and defaults, and reads it back with variants', async () => {
    const created = await v1('POST', '/api/v1/products', physical);
    expect(created.status).toBe(201);
    const product = created.body.data.product;
    expect(created.body).toEqual({
      success: true,
      data: {
        product: {
          id: expect.any(String),
          storeId: tenant.storeId,
          name: 'Camiseta Básica Algodão',
          slug: 'camiseta-basica-algodao',
          type: 'PHYSICAL',
          status: 'DRAFT',
          price: 79.9,
          discountedPrice: 59.9,
          costPrice: 19.9,
          currency: 'BRL',
          media: { images: physical.media.images, videos: [], documents: [] },
          stock: 12,
          sku: 'CAM-1',
          barcode: null,
          description: 'Camiseta Básica Algodão',
          shortDescription: 'Camiseta Básica Algodão',
          logistics: physical.logistics,
          featured: false,
          createdAt: expect.any(String),
          updatedAt: product.createdAt,
        },
      },
    });
    expect(product).not.toHaveProperty('variants');

    const variant = await call(server.baseUrl, 'POST', `/admin/products/${product.id}/variants`, {
      headers: adminHeaders(server),
      body: { title: 'Azul / M', sku: 'CAM-1-AZ-M', stock: 4 },
    });
    expect(variant.status).toBe(201);
    const read = await v1('GET', `/api/v1/products/${product.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data.product).toEqual({
      ...product,
      variants: [
        {
          id: variant.body.data.variant.id,
          title: 'Azul / M',
          sku: 'CAM-1-AZ-M',
          price: 79.9,
          stock: 4,
          status: 'ACTIVE',
        },
      ],
    });
    const list = await v1('GET', '/api/v1/products?limit=100');
    expect(list.body.data.products.find((p: { id: string }) => p.id === product.id)).toEqual(product);
    expect(list.body.data.products.every((p: object) => !('variants' in p))).toBe(true);
  });

  it('keeps money exact: 19.9 stays 19.9, 0.01 stays 0.01', async () => {
    const created = await v1('POST', '/api/v1/products', {
      name: 'Adesivo',
      type: 'DIGITAL',
      price: 0.01,
      costPrice: 19.9,
    });
    const read = await v1('GET', `/api/v1/products/${created.body.data.product.id}`);
    expect(read.body.data.product.price).toBe(0.01);
    expect(read.body.data.product.costPrice).toBe(19.9);
  });

  it.each([
    ['PHYSICAL without logistics', { name: 'Caneca', type: 'PHYSICAL', price: 10 }, 'logistics'],
    ['name too short', { name: 'Ab', type: 'DIGITAL', price: 10 }, 'name'],
    ['name too long', { name: 'x'.repeat(101), type: 'DIGITAL', price: 10 }, 'name'],
    ['price below 0.01', { name: 'Caneca', type: 'DIGITAL', price: 0 }, 'price'],
    ['price above 999999.99', { name: 'Caneca', type: 'DIGITAL', price: 1_000_000 }, 'price'],
    ['unknown type', { name: 'Caneca', type: 'SERVICE', price: 10 }, 'type'],
    ['costPrice above bound', { name: 'Caneca', type: 'DIGITAL', price: 10, costPrice: 1_000_000 }, 'costPrice'],
    ['sku longer than 100', { name: 'Caneca', type: 'DIGITAL', price: 10, sku: 'x'.repeat(101) }, 'sku'],
    ['no images in media', { name: 'Caneca', type: 'DIGITAL', price: 10, media: { images: [] } }, 'media.images'],
    [
      'logistics weight 0',
      { ...physical, name: 'Caneca', logistics: { ...physical.logistics, weight: 0 } },
      'logistics.weight',
    ],
    ['negative stock', { name: 'Caneca', type: 'DIGITAL', price: 10, stock: { quantity: -1 } }, 'stock.quantity'],
    [
      'discountedPrice not below price',
      { name: 'Caneca', type: 'DIGITAL', price: 10, discountedPrice: 10 },
      'discountedPrice',
    ],
    ['missing name', { type: 'DIGITAL', price: 10 }, 'name'],
    ['unknown field', { name: 'Caneca', type: 'DIGITAL', price: 10, colour: 'azul' }, 'colour'],
  ])('rejects %s with 400 VALIDATION_ERROR naming the field', async (_name, body, field) => {
    const response = await v1('POST', '/api/v1/products', body);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      success: false,
      error: { code: 'VALIDATION_ERROR', message: expect.any(String) },
      meta: { status: 400, timestamp: expect.any(String) },
    });
    expect(response.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
  });

  it('answers 409 DUPLICATE_ENTRY for a slug already in the store, on create and on update', async () => {
    const first = await v1('POST', '/api/v1/products', { name: 'Boné Azul', type: 'DIGITAL', price: 30 });
    expect(first.status).toBe(201);
    const clash = await v1('POST', '/api/v1/products', { name: 'Boné  azul!', type: 'DIGITAL', price: 31 });
    expect(clash.status).toBe(409);
    expect(clash.body.error.code).toBe('DUPLICATE_ENTRY');
    expect(clash.body.meta.status).toBe(409);
    const elsewhere = await v1('POST', '/api/v1/products', { name: 'Boné Azul', type: 'DIGITAL', price: 30 }, other);
    expect(elsewhere.status).toBe(201);

    const second = await v1('POST', '/api/v1/products', { name: 'Boné Verde', type: 'DIGITAL', price: 30 });
    const renamed = await v1('PATCH', `/api/v1/products/${second.body.data.product.id}`, { name: 'Boné Azul' });
    expect(renamed.status).toBe(409);
    const reslug = await v1('PATCH', `/api/v1/products/${second.body.data.product.id}`, { slug: 'bone-azul' });
    expect(reslug.status).toBe(409);
    const read = await v1('GET', `/api/v1/products/${second.body.data.product.id}`);
    expect(read.body.data.product.slug).toBe('bone-verde');
  });

  it('updates only the sent fields, needs at least one, and answers 404 for unknown and foreign ids', async () => {
    const created = (await v1('POST', '/api/v1/products', { ...physical, name: 'Camiseta Listrada' })).body.data
      .product;
    const updated = await v1('PATCH', `/api/v1/products/${created.id}`, {
      status: 'PUBLISHED',
      stock: { quantity: 3 },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.product).toEqual({
      ...created,
      slug: expect.any(String),
      status: 'PUBLISHED',
      stock: 3,
      updatedAt: expect.any(String),
    });
    expect(updated.body.data.product).not.toHaveProperty('variants');
    expect((await v1('PATCH', `/api/v1/products/${created.id}`, {})).status).toBe(400);
    expect((await v1('PATCH', `/api/v1/products/${created.id}`, { discountedPrice: 100 })).status).toBe(400);
    const unknown = await v1('PATCH', '/api/v1/products/00000000-0000-4000-8000-000000000000', { price: 1 });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('RESOURCE_NOT_FOUND');
    const foreign = await v1('PATCH', `/api/v1/products/${created.id}`, { price: 1 }, other);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ ...unknown.body, meta: { ...unknown.body.meta, timestamp: expect.any(String) } });
    expect((await v1('GET', `/api/v1/products/${created.id}`, undefined, other)).status).toBe(404);
    expect((await v1('DELETE', `/api/v1/products/${created.id}`, undefined, other)).status).toBe(404);
    expect((await v1('DELETE', `/api/v1/products/${created.id}`)).status).toBe(204);
    expect((await v1('GET', `/api/v1/products/${created.id}`)).status).toBe(404);
  });

  it('replays an idempotent create: same status and body, the header, and nothing new created', async () => {
    const body = { name: 'Meia Esportiva', type: 'DIGITAL', price: 12.5 };
    const key = { 'idempotency-key': `meia-${Date.now()}` };
    const first = await v1('POST', '/api/v1/products', body, tenant, key);
    const again = await v1('POST', '/api/v1/products', body, tenant, key);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const list = await v1('GET', '/api/v1/products?search=meia%20esportiva');
    expect(list.body.data.pagination.total).toBe(1);

    const mismatch = await v1('POST', '/api/v1/products', { ...body, price: 13 }, tenant, key);
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.error.code).toBe('IDEMPOTENCY_KEY_MISMATCH');
    const otherStore = await v1('POST', '/api/v1/products', body, other, key);
    expect(otherStore.status).toBe(201);
    expect(otherStore.headers.get('idempotent-replayed')).toBeNull();
  });

  it('creates exactly one product for concurrent requests with one key', async () => {
    const body = { name: 'Chaveiro Concorrente', type: 'DIGITAL', price: 5 };
    const key = { 'idempotency-key': `chaveiro-${Date.now()}` };
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => v1('POST', '/api/v1/products', body, tenant, key)),
    );
    for (const response of responses) expect([201, 409]).toContain(response.status);
    const created = responses.filter((r) => r.status === 201);
    expect(new Set(created.map((r) => r.body.data.product.id)).size).toBe(1);
    for (const conflict of responses.filter((r) => r.status === 409)) {
      expect(conflict.body.error.code).toBe('IDEMPOTENCY_KEY_IN_USE');
    }
    const list = await v1('GET', '/api/v1/products?search=chaveiro%20concorrente');
    expect(list.body.data.pagination.total).toBe(1);
  });

  it('does not remember a request that failed, so a corrected retry with the key succeeds', async () => {
    const key = { 'idempotency-key': `corrige-${Date.now()}` };
    const bad = await v1('POST', '/api/v1/products', { name: 'Caneca', type: 'PHYSICAL', price: 10 }, tenant, key);
    expect(bad.status).toBe(400);
    const good = await v1('POST', '/api/v1/products', { name: 'Caneca Boa', type: 'DIGITAL', price: 10 }, tenant, key);
    expect(good.status).toBe(201);
    expect(good.headers.get('idempotent-replayed')).toBeNull();
  });

  it('rejects a malformed Idempotency-Key with 400', async () => {
    const response = await v1('POST', '/api/v1/products', physical, tenant, { 'idempotency-key': 'has spaces!' });
    expect(response.status).toBe(400);
    expect(response.body.error.details[0]).toMatchObject({ location: 'header', path: 'idempotency-key' });
  });
});
