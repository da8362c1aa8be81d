import { once } from 'node:events';
import { get as httpGet, type IncomingMessage } from 'node:http';
import { text } from 'node:stream/consumers';
import { expect } from 'vitest';
import { RECORD_ID, UNKNOWN } from '../../../test/catalog.ts';
import { deletedAnswer, deletion } from '../../../test/deletion.ts';
import { describeEngines, malformed, test, withoutDefaults } from '../../../test/fixture.ts';
import type { ProductCreate, VariantCreate } from '../../../test/records.ts';
import { expectInvalid } from '../../../test/store-scoped.ts';

const physical = withoutDefaults<ProductCreate>({
  name: 'Camiseta Básica Algodão',
  type: 'PHYSICAL',
  price: 79.9,
  discountedPrice: 59.9,
  media: { images: ['https://cdn.example.com/a.jpg', 'https://cdn.example.com/b.jpg'] },
  stock: { quantity: 12, trackInventory: true },
  logistics: { height: 4, width: 25, length: 30, weight: 0.25 },
  sku: 'CAM-1',
  costPrice: 19.9,
});
const digital = (name: string, price = 10) => withoutDefaults<ProductCreate>({ name, type: 'DIGITAL', price });
const images = ['https://cdn.example.com/a.jpg', 'https://cdn.example.com/b.jpg'];
const logistics = { height: 4, width: 25, length: 30, weight: 0.25 };

describeEngines('products', () => {
  test('createProduct (201) derives the slug and defaults; createVariant adds one at the product price; getProductById reads it back with variants; listProducts has it', async ({
    api,
    admin,
    tenant,
  }) => {
    const created = await api.POST('/api/v1/products', { body: physical });
    expect(created.response.status).toBe(201);
    const product = created.data?.data.product;
    expect(created.data).toEqual({
      success: true,
      data: {
        product: {
          id: expect.stringMatching(RECORD_ID),
          storeId: tenant.storeId,
          name: 'Camiseta Básica Algodão',
          slug: 'camiseta-basica-algodao',
          type: 'PHYSICAL',
          status: 'DRAFT',
          price: 79.9,
          discountedPrice: 59.9,
          costPrice: 19.9,
          currency: 'BRL',
          media: { images, videos: [], documents: [] },
          stock: 12,
          sku: 'CAM-1',
          barcode: null,
          description: 'Camiseta Básica Algodão',
          shortDescription: 'Camiseta Básica Algodão',
          logistics,
          featured: false,
          createdAt: expect.any(String),
          updatedAt: product?.createdAt,
        },
      },
    });
    expect(product).not.toHaveProperty('variants');
    const productId = product?.id ?? UNKNOWN;

    const variant = await admin.POST('/admin/products/{productId}/variants', {
      params: { path: { productId } },
      body: withoutDefaults<VariantCreate>({ title: 'Azul / M', sku: 'CAM-1-AZ-M', stock: 4 }),
    });
    expect(variant.response.status).toBe(201);
    const read = await api.GET('/api/v1/products/{productId}', { params: { path: { productId } } });
    expect(read.response.status).toBe(200);
    expect(read.data?.data.product).toEqual({
      ...product,
      variants: [
        {
          id: variant.data?.data.variant.id,
          title: 'Azul / M',
          sku: 'CAM-1-AZ-M',
          price: 79.9,
          stock: 4,
          status: 'ACTIVE',
        },
      ],
    });
    const list = await api.GET('/api/v1/products', { params: { query: { limit: 100 } } });
    expect(list.data?.data.products).toEqual([product]);
  });

  test('createVariant answers the whole variant, refuses an empty title (400) and an unknown product (404)', async ({
    api,
    admin,
  }) => {
    const productId = (await api.POST('/api/v1/products', { body: physical })).data?.data.product.id ?? UNKNOWN;
    const created = await admin.POST('/admin/products/{productId}/variants', {
      params: { path: { productId } },
      body: { title: 'Verde / G', price: 89.9, stock: 2, status: 'INACTIVE' },
    });
    expect(created.response.status).toBe(201);
    expect(created.data).toEqual({
      success: true,
      data: {
        variant: { id: expect.any(String), title: 'Verde / G', sku: null, price: 89.9, stock: 2, status: 'INACTIVE' },
      },
    });
    expectInvalid(
      await admin.POST('/admin/products/{productId}/variants', {
        params: { path: { productId } },
        body: withoutDefaults<VariantCreate>({ title: '' }),
      }),
      'title',
    );
    const unknown = await admin.POST('/admin/products/{productId}/variants', {
      params: { path: { productId: UNKNOWN } },
      body: withoutDefaults<VariantCreate>({ title: 'Azul / P' }),
    });
    expect(unknown.response.status).toBe(404);
    expect(unknown.error).toMatchObject({ error: { code: 'RESOURCE_NOT_FOUND' } });
  });

  test('createProduct keeps money exact: 19.9 stays 19.9, 0.01 stays 0.01', async ({ api }) => {
    const created = await api.POST('/api/v1/products', { body: { ...digital('Adesivo', 0.01), costPrice: 19.9 } });
    const productId = created.data?.data.product.id ?? UNKNOWN;
    const read = await api.GET('/api/v1/products/{productId}', { params: { path: { productId } } });
    expect(read.data?.data.product).toMatchObject({ price: 0.01, costPrice: 19.9 });
  });

  test('getProductById answers 200 with the product whatever conditional headers say: the contract has no 304', async ({
    api,
    server,
    tenant,
  }) => {
    const created = await api.POST('/api/v1/products', { body: digital('Adesivo') });
    const productId = created.data?.data.product.id ?? UNKNOWN;
    const plain = await api.GET('/api/v1/products/{productId}', { params: { path: { productId } } });
    // node:http, not fetch: fetch adds `Cache-Control: no-cache` to a conditional request, which hides a 304.
    for (const condition of [{ 'if-none-match': '*' }, { 'if-modified-since': 'Fri, 01 Jan 2100 00:00:00 GMT' }]) {
      const url = `${server.baseUrl}/api/v1/products/${productId}`;
      const request = httpGet(url, { headers: { ...tenant.headers, ...condition } });
      const [response] = (await once(request, 'response')) as [IncomingMessage];
      const body = (await text(response)) || '(empty)';
      expect({ status: response.statusCode, body: body === '(empty)' ? body : JSON.parse(body) }).toEqual({
        status: 200,
        body: plain.data,
      });
    }
  });

  test.for([
    ['PHYSICAL without logistics', { name: 'Caneca', type: 'PHYSICAL', price: 10 }, 'logistics'],
    ['name too short', digital('Ab'), 'name'],
    ['name too long', digital('x'.repeat(101)), 'name'],
    ['price below 0.01', digital('Caneca', 0), 'price'],
    ['price above 999999.99', digital('Caneca', 1_000_000), 'price'],
    ['unknown type', { name: 'Caneca', type: 'SERVICE', price: 10 }, 'type'],
    ['costPrice above bound', { ...digital('Caneca'), costPrice: 1_000_000 }, 'costPrice'],
    ['sku longer than 100', { ...digital('Caneca'), sku: 'x'.repeat(101) }, 'sku'],
    ['no images in media', { ...digital('Caneca'), media: { images: [] } }, 'media.images'],
    ['logistics weight 0', { ...physical, name: 'Caneca', logistics: { ...logistics, weight: 0 } }, 'logistics.weight'],
    ['negative stock', { ...digital('Caneca'), stock: { quantity: -1 } }, 'stock.quantity'],
    ['discountedPrice not below price', { ...digital('Caneca'), discountedPrice: 10 }, 'discountedPrice'],
    ['missing name', { type: 'DIGITAL', price: 10 }, 'name'],
    ['unknown field', { ...digital('Caneca'), colour: 'azul' }, 'colour'],
  ] as const)(
    'createProduct rejects %s with 400 VALIDATION_ERROR naming the field, and only it',
    async ([, body, field], { api }) => {
      const { response, error } = await api.POST('/api/v1/products', { body: malformed(body) });
      expect(response.status).toBe(400);
      expect(error).toMatchObject({
        success: false,
        error: { code: 'VALIDATION_ERROR', message: expect.any(String) },
        meta: { status: 400, timestamp: expect.any(String) },
      });
      const { details } = (error as { error: { details: { location: string; path: string }[] } }).error;
      expect(details.map(({ location, path }) => `${location} ${path}`)).toEqual([`body ${field}`]);
    },
  );

  test('createProduct and updateProduct answer 409 DUPLICATE_ENTRY for a slug already in the store', async ({
    api,
    otherStore,
  }) => {
    expect((await api.POST('/api/v1/products', { body: digital('Boné Azul', 30) })).response.status).toBe(201);
    const clash = await api.POST('/api/v1/products', { body: digital('Boné  azul!', 31) });
    expect(clash.response.status).toBe(409);
    expect(clash.error).toMatchObject({
      error: { code: 'DUPLICATE_ENTRY', details: [{ location: 'body', path: 'slug' }] },
      meta: { status: 409 },
    });
    const elsewhere = await otherStore.POST('/api/v1/products', { body: digital('Boné Azul', 30) });
    expect(elsewhere.response.status).toBe(201);

    const second = await api.POST('/api/v1/products', { body: digital('Boné Verde', 30) });
    const path = { productId: second.data?.data.product.id ?? UNKNOWN };
    const renamed = await api.PATCH('/api/v1/products/{productId}', { params: { path }, body: { name: 'Boné Azul' } });
    expect(renamed.response.status).toBe(409);
    const reslug = await api.PATCH('/api/v1/products/{productId}', { params: { path }, body: { slug: 'bone-azul' } });
    expect(reslug.response.status).toBe(409);
    const read = await api.GET('/api/v1/products/{productId}', { params: { path } });
    expect(read.data?.data.product.slug).toBe('bone-verde');
  });

  test('a name without a letter or digit derives the slug item, as the contract states, and a second clashes', async ({
    api,
  }) => {
    const first = await api.POST('/api/v1/products', { body: digital('¡¿!?', 30) });
    expect(first.data?.data.product).toMatchObject({ name: '¡¿!?', slug: 'item' });
    const second = await api.POST('/api/v1/products', { body: digital('   ', 30) });
    expect(second.error).toEqual({
      success: false,
      error: {
        message: 'Já existe um registro com este valor na loja.',
        code: 'DUPLICATE_ENTRY',
        details: [{ location: 'body', path: 'slug', reason: 'slug já utilizado: item' }],
      },
      meta: { status: 409, timestamp: expect.any(String) },
    });
  });

  test('names in other scripts derive slugs of their own, in Latin letters: distinct names never clash as item', async ({
    api,
  }) => {
    for (const [name, slug] of [
      ['Футболка синяя', 'futbolka-sinyaya'],
      ['日本語', 'ri-ben-yu'],
      ['日本人', 'ri-ben-ren'],
    ] as const) {
      const created = await api.POST('/api/v1/products', { body: digital(name, 30) });
      expect(created.response.status).toBe(201);
      expect(created.data?.data.product).toMatchObject({ name, slug });
    }
  });

  test('updateProduct changes only the sent fields and needs one; unknown and foreign ids are 404 for updateProduct, getProductById and deleteProduct', async ({
    api,
    otherStore,
  }) => {
    const created = (await api.POST('/api/v1/products', { body: { ...physical, name: 'Camiseta Listrada' } })).data
      ?.data.product;
    const path = { productId: created?.id ?? UNKNOWN };
    const updated = await api.PATCH('/api/v1/products/{productId}', {
      params: { path },
      body: { status: 'PUBLISHED', stock: { quantity: 3 } },
    });
    expect(updated.response.status).toBe(200);
    expect(updated.data?.data.product).toEqual({
      ...created,
      status: 'PUBLISHED',
      stock: 3,
      updatedAt: expect.any(String),
    });
    expect((await api.PATCH('/api/v1/products/{productId}', { params: { path }, body: {} })).response.status).toBe(400);
    const notBelow = await api.PATCH('/api/v1/products/{productId}', {
      params: { path },
      body: { discountedPrice: 100 },
    });
    expect(notBelow.response.status).toBe(400);
    const unknown = await api.PATCH('/api/v1/products/{productId}', {
      params: { path: { productId: UNKNOWN } },
      body: { price: 1 },
    });
    expect(unknown.response.status).toBe(404);
    expect(unknown.error).toMatchObject({ error: { code: 'RESOURCE_NOT_FOUND' } });
    const foreign = await otherStore.PATCH('/api/v1/products/{productId}', { params: { path }, body: { price: 1 } });
    expect(foreign.response.status).toBe(404);
    expect(foreign.error).toEqual({ ...unknown.error, meta: { status: 404, timestamp: expect.any(String) } });
    expect((await otherStore.GET('/api/v1/products/{productId}', { params: { path } })).response.status).toBe(404);
    expect((await otherStore.DELETE('/api/v1/products/{productId}', { params: { path } })).response.status).toBe(404);
    expect(await deletion(api.DELETE('/api/v1/products/{productId}', { params: { path } }))).toEqual(
      deletedAnswer(path.productId),
    );
    expect((await api.GET('/api/v1/products/{productId}', { params: { path } })).response.status).toBe(404);
  });

  test('listProducts filters by status, type and search and pages newest first', async ({ api }) => {
    const names = ['Caderno Azul', 'Caderno Verde', 'Lápis Preto'];
    for (const name of names) await api.POST('/api/v1/products', { body: digital(name) });
    await api.POST('/api/v1/products', { body: { ...physical, name: 'Caderno Físico', status: 'ACTIVE' } });
    const search = await api.GET('/api/v1/products', { params: { query: { search: 'caderno', type: 'DIGITAL' } } });
    expect(search.data?.data.products.map((product) => product.name)).toEqual(['Caderno Verde', 'Caderno Azul']);
    const active = await api.GET('/api/v1/products', { params: { query: { status: 'ACTIVE' } } });
    expect(active.data?.data.products.map((product) => product.name)).toEqual(['Caderno Físico']);
    const page = await api.GET('/api/v1/products', { params: { query: { limit: 3, page: 2 } } });
    expect(page.data?.data).toEqual({
      products: [expect.objectContaining({ name: 'Caderno Azul' })],
      pagination: { page: 2, limit: 3, total: 4, totalPages: 2 },
    });
  });

  test('createProduct replays an idempotent create: same status and body, the header, and nothing new created', async ({
    api,
    otherStore,
  }) => {
    const body = digital('Meia Esportiva', 12.5);
    const header = { 'Idempotency-Key': `meia-${Date.now()}` };
    const first = await api.POST('/api/v1/products', { params: { header }, body });
    const again = await api.POST('/api/v1/products', { params: { header }, body });
    expect(first.response.status).toBe(201);
    expect(first.response.headers.get('idempotent-replayed')).toBeNull();
    expect(again.response.status).toBe(201);
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
    expect(again.data).toEqual(first.data);
    const list = await api.GET('/api/v1/products', { params: { query: { search: 'meia esportiva' } } });
    expect(list.data?.data.pagination.total).toBe(1);

    const mismatch = await api.POST('/api/v1/products', { params: { header }, body: { ...body, price: 13 } });
    expect(mismatch.response.status).toBe(422);
    expect(mismatch.error).toMatchObject({ error: { code: 'IDEMPOTENCY_KEY_MISMATCH' } });
    const otherStoreCreate = await otherStore.POST('/api/v1/products', { params: { header }, body });
    expect(otherStoreCreate.response.status).toBe(201);
    expect(otherStoreCreate.response.headers.get('idempotent-replayed')).toBeNull();
  });

  test('createProduct creates exactly one product for concurrent requests with one key', async ({ api }) => {
    const body = digital('Chaveiro Concorrente', 5);
    const header = { 'Idempotency-Key': `chaveiro-${Date.now()}` };
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => api.POST('/api/v1/products', { params: { header }, body })),
    );
    // One creates; each other is refused while it runs (409) or, once it has finished, replays it exactly.
    const first = responses.filter(
      ({ response }) => response.status === 201 && !response.headers.has('idempotent-replayed'),
    );
    expect(first).toHaveLength(1);
    for (const { response, data, error } of responses) {
      if (response.status === 409) expect(error).toMatchObject({ error: { code: 'IDEMPOTENCY_KEY_IN_USE' } });
      else expect(data).toEqual(first[0]?.data);
      expect([201, 409]).toContain(response.status);
    }
    const list = await api.GET('/api/v1/products', { params: { query: { search: 'chaveiro concorrente' } } });
    expect(list.data?.data.pagination.total).toBe(1);
  });

  test('createProduct does not remember a request that failed, so a corrected retry with the key succeeds', async ({
    api,
  }) => {
    const header = { 'Idempotency-Key': `corrige-${Date.now()}` };
    const bad = await api.POST('/api/v1/products', {
      params: { header },
      body: withoutDefaults<ProductCreate>({ name: 'Caneca', type: 'PHYSICAL', price: 10 }),
    });
    expect(bad.response.status).toBe(400);
    const good = await api.POST('/api/v1/products', { params: { header }, body: digital('Caneca Boa') });
    expect(good.response.status).toBe(201);
    expect(good.response.headers.get('idempotent-replayed')).toBeNull();
  });

  test('createProduct refuses a taken slug with 409 even with an Idempotency-Key, and the key stays free for a corrected retry', async ({
    api,
  }) => {
    expect((await api.POST('/api/v1/products', { body: digital('Caneca Azul', 20) })).response.status).toBe(201);
    const header = { 'Idempotency-Key': `repetido-${Date.now()}` };
    const clash = await api.POST('/api/v1/products', { params: { header }, body: digital('Caneca  azul!', 21) });
    expect(clash.response.status).toBe(409);
    expect(clash.error).toEqual({
      success: false,
      error: {
        message: 'Já existe um registro com este valor na loja.',
        code: 'DUPLICATE_ENTRY',
        details: [{ location: 'body', path: 'slug', reason: 'slug já utilizado: caneca-azul' }],
      },
      meta: { status: 409, timestamp: expect.any(String) },
    });
    const retried = await api.POST('/api/v1/products', { params: { header }, body: digital('Caneca Verde', 21) });
    expect(retried.response.status).toBe(201);
    expect(retried.response.headers.get('idempotent-replayed')).toBeNull();
    const list = await api.GET('/api/v1/products', { params: { query: { search: 'caneca' } } });
    expect(list.data?.data.products.map((product) => product.slug).sort()).toEqual(['caneca-azul', 'caneca-verde']);
  });

  test('createProduct rejects a malformed Idempotency-Key with 400', async ({ api }) => {
    const { response, error } = await api.POST('/api/v1/products', {
      params: { header: { 'Idempotency-Key': 'has spaces!' } },
      body: physical,
    });
    expect(response.status).toBe(400);
    expect(error).toMatchObject({ error: { details: [{ location: 'header', path: 'idempotency-key' }] } });
  });
});
