import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminHeaders, call, createTenant, engines, startServer, type Tenant, type TestServer } from './harness.ts';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const paths = (body: { error: { details: { path: string }[] } }) => body.error.details.map((d) => d.path);

describe.each(engines)('offers (kits, gifts, upsells, order bumps) on %s', (engine) => {
  let server: TestServer;
  let tenant: Tenant;
  let other: Tenant;
  let productsOnly: Tenant;
  /** A product with a cover image (29.9), one without images (100), another store's product, a category. */
  let shirt: { id: string; media: { images: string[] } };
  let ebook: { id: string };
  let foreignProduct: { id: string };
  let categoryId: string;
  const v1 = (method: string, path: string, body?: unknown, who: Tenant = tenant) =>
    call(server.baseUrl, method, path, { headers: who.headers, ...(body !== undefined ? { body } : {}) });

  beforeAll(async () => {
    server = await startServer({ engine });
    tenant = await createTenant(server);
    other = await createTenant(server);
    productsOnly = await createTenant(server, ['products:read']);
    shirt = (
      await v1('POST', '/api/v1/products', {
        name: 'Meia Esportiva',
        type: 'DIGITAL',
        price: 29.9,
        media: { images: ['https://cdn.example.com/meia.jpg', 'https://cdn.example.com/meia-2.jpg'] },
      })
    ).body.data.product;
    ebook = (await v1('POST', '/api/v1/products', { name: 'Ebook Receitas', type: 'DIGITAL', price: 100 })).body.data
      .product;
    foreignProduct = (
      await v1('POST', '/api/v1/products', { name: 'Produto Alheio', type: 'DIGITAL', price: 10 }, other)
    ).body.data.product;
    categoryId = (await v1('POST', '/api/v1/categories', { name: 'Acessórios' })).body.data.category.id;
  });
  afterAll(() => server.close());

  describe('kits', () => {
    it('creates a kit (201) with defaults, reads it back, lists, updates and deletes it', async () => {
      const created = await v1('POST', '/api/v1/kits', {
        name: 'Kit Treino',
        price: 119.9,
        items: [
          { productId: shirt.id, quantity: 2 },
          { productId: ebook.id, quantity: 1 },
        ],
      });
      expect(created.status).toBe(201);
      const kit = created.body.data.kit;
      expect(created.body).toEqual({
        success: true,
        data: {
          kit: {
            id: expect.any(String),
            storeId: tenant.storeId,
            name: 'Kit Treino',
            description: null,
            status: 'ACTIVE',
            price: 119.9,
            items: [
              { productId: shirt.id, quantity: 2 },
              { productId: ebook.id, quantity: 1 },
            ],
            createdAt: expect.any(String),
            updatedAt: kit.createdAt,
          },
        },
      });
      expect((await v1('GET', `/api/v1/kits/${kit.id}`)).body).toEqual(created.body);
      const list = await v1('GET', '/api/v1/kits?search=treino&status=ACTIVE');
      expect(list.body.data).toEqual({ kits: [kit], pagination: { page: 1, limit: 20, total: 1, totalPages: 1 } });
      expect((await v1('GET', '/api/v1/kits?status=INACTIVE')).body.data.kits).toEqual([]);

      const updated = await v1('PATCH', `/api/v1/kits/${kit.id}`, {
        status: 'INACTIVE',
        items: [{ productId: ebook.id, quantity: 3 }],
      });
      expect(updated.status).toBe(200);
      expect(updated.body.data.kit).toEqual({
        ...kit,
        status: 'INACTIVE',
        items: [{ productId: ebook.id, quantity: 3 }],
        updatedAt: expect.any(String),
      });
      expect((await v1('GET', `/api/v1/kits/${kit.id}`)).body.data.kit).toEqual(updated.body.data.kit);
      expect((await v1('DELETE', `/api/v1/kits/${kit.id}`)).status).toBe(204);
      expect((await v1('GET', `/api/v1/kits/${kit.id}`)).status).toBe(404);
    });

    it('answers 422 REFERENCE_NOT_FOUND naming each unknown or foreign item product, on create and update', async () => {
      const bad = await v1('POST', '/api/v1/kits', {
        name: 'Kit Ruim',
        price: 10,
        items: [
          { productId: shirt.id, quantity: 1 },
          { productId: UNKNOWN, quantity: 1 },
          { productId: foreignProduct.id, quantity: 1 },
        ],
      });
      expect(bad.status).toBe(422);
      expect(bad.body.error.code).toBe('REFERENCE_NOT_FOUND');
      expect(paths(bad.body)).toEqual(['items.1.productId', 'items.2.productId']);
      const kit = (
        await v1('POST', '/api/v1/kits', { name: 'Kit Bom', price: 10, items: [{ productId: shirt.id, quantity: 1 }] })
      ).body.data.kit;
      const update = await v1('PATCH', `/api/v1/kits/${kit.id}`, { items: [{ productId: UNKNOWN, quantity: 1 }] });
      expect(update.status).toBe(422);
      expect(paths(update.body)).toEqual(['items.0.productId']);
    });

    it.each([
      ['no items', { name: 'Kit', price: 10, items: [] }, 'items'],
      ['quantity 0', { name: 'Kit', price: 10, items: [{ productId: UNKNOWN, quantity: 0 }] }, 'items.0.quantity'],
      ['missing name', { price: 10, items: [{ productId: UNKNOWN, quantity: 1 }] }, 'name'],
      ['negative price', { name: 'Kit', price: -1, items: [{ productId: UNKNOWN, quantity: 1 }] }, 'price'],
      ['unknown field', { name: 'Kit', price: 1, items: [{ productId: UNKNOWN, quantity: 1 }], sku: 'x' }, 'sku'],
    ])('rejects %s with 400 naming the field', async (_name, body, field) => {
      const response = await v1('POST', '/api/v1/kits', body);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
      expect(paths(response.body)).toContain(field);
    });
  });

  describe('gifts', () => {
    it('creates a gift with defaults, reads, filters, updates and deletes it', async () => {
      const created = await v1('POST', '/api/v1/gifts', {
        name: 'Brinde Meia',
        productId: shirt.id,
        minCartTotal: 150,
      });
      expect(created.status).toBe(201);
      const gift = created.body.data.gift;
      expect(gift).toEqual({
        id: expect.any(String),
        storeId: tenant.storeId,
        name: 'Brinde Meia',
        productId: shirt.id,
        active: true,
        minCartTotal: 150,
        maxQuantity: 1,
        startsAt: null,
        endsAt: null,
        createdAt: expect.any(String),
        updatedAt: gift.createdAt,
      });
      expect((await v1('GET', `/api/v1/gifts/${gift.id}`)).body.data.gift).toEqual(gift);
      expect((await v1('GET', '/api/v1/gifts?active=true&search=brinde')).body.data.gifts).toEqual([gift]);
      expect((await v1('GET', '/api/v1/gifts?active=false')).body.data.gifts).toEqual([]);
      const updated = await v1('PATCH', `/api/v1/gifts/${gift.id}`, {
        active: false,
        productId: ebook.id,
        startsAt: '2030-01-01T00:00:00Z',
        endsAt: '2030-02-01T00:00:00Z',
      });
      expect(updated.status).toBe(200);
      expect(updated.body.data.gift).toEqual({
        ...gift,
        active: false,
        productId: ebook.id,
        startsAt: '2030-01-01T00:00:00Z',
        endsAt: '2030-02-01T00:00:00Z',
        updatedAt: expect.any(String),
      });
      expect((await v1('GET', `/api/v1/gifts/${gift.id}`)).body.data.gift).toEqual(updated.body.data.gift);
      expect((await v1('DELETE', `/api/v1/gifts/${gift.id}`)).status).toBe(204);
      expect((await v1('DELETE', `/api/v1/gifts/${gift.id}`)).status).toBe(404);
    });

    it('answers 422 for a foreign product and 400 for an end not after the start', async () => {
      const foreign = await v1('POST', '/api/v1/gifts', { name: 'B', productId: foreignProduct.id, minCartTotal: 1 });
      expect(foreign.status).toBe(422);
      expect(paths(foreign.body)).toEqual(['productId']);
      const window = await v1('POST', '/api/v1/gifts', {
        name: 'B',
        productId: shirt.id,
        minCartTotal: 1,
        startsAt: '2030-01-01T00:00:00Z',
        endsAt: '2030-01-01T00:00:00Z',
      });
      expect(window.status).toBe(400);
      expect(paths(window.body)).toEqual(['endsAt']);
      const missing = await v1('POST', '/api/v1/gifts', { name: 'B', productId: shirt.id });
      expect(missing.status).toBe(400);
      expect(paths(missing.body)).toContain('minCartTotal');
    });
  });

  describe('upsells', () => {
    it('creates an upsell, reads it back, searches by title, updates and deletes it', async () => {
      const created = await v1('POST', '/api/v1/upsells', {
        name: 'Upsell ebook',
        productId: ebook.id,
        triggerProductIds: [shirt.id],
        discountType: 'PERCENT',
        discountAmount: 15,
        title: 'Leve o ebook de receitas',
      });
      expect(created.status).toBe(201);
      const upsell = created.body.data.upsell;
      expect(upsell).toEqual({
        id: expect.any(String),
        storeId: tenant.storeId,
        name: 'Upsell ebook',
        productId: ebook.id,
        triggerProductIds: [shirt.id],
        discountType: 'PERCENT',
        discountAmount: 15,
        title: 'Leve o ebook de receitas',
        description: null,
        active: true,
        createdAt: expect.any(String),
        updatedAt: upsell.createdAt,
      });
      expect((await v1('GET', `/api/v1/upsells/${upsell.id}`)).body.data.upsell).toEqual(upsell);
      expect((await v1('GET', '/api/v1/upsells?search=RECEITAS')).body.data.upsells).toEqual([upsell]);
      const updated = await v1('PATCH', `/api/v1/upsells/${upsell.id}`, { discountType: 'FIXED', discountAmount: 150 });
      expect(updated.status).toBe(200);
      expect(updated.body.data.upsell).toEqual({
        ...upsell,
        discountType: 'FIXED',
        discountAmount: 150,
        updatedAt: expect.any(String),
      });
      expect((await v1('DELETE', `/api/v1/upsells/${upsell.id}`)).status).toBe(204);
      expect((await v1('GET', `/api/v1/upsells/${upsell.id}`)).status).toBe(404);
    });

    it('keeps a PERCENT discount at most 100, also when an update sends only the amount', async () => {
      const body = { name: 'U', productId: ebook.id, discountType: 'PERCENT', discountAmount: 101, title: 'T' };
      const tooMuch = await v1('POST', '/api/v1/upsells', body);
      expect(tooMuch.status).toBe(400);
      expect(paths(tooMuch.body)).toContain('discountAmount');
      const upsell = (await v1('POST', '/api/v1/upsells', { ...body, discountAmount: 10 })).body.data.upsell;
      const update = await v1('PATCH', `/api/v1/upsells/${upsell.id}`, { discountAmount: 150 });
      expect(update.status).toBe(400);
      expect(paths(update.body)).toEqual(['discountAmount']);
      expect((await v1('GET', `/api/v1/upsells/${upsell.id}`)).body.data.upsell.discountAmount).toBe(10);
    });

    it('answers 422 naming the product and each bad trigger product', async () => {
      const response = await v1('POST', '/api/v1/upsells', {
        name: 'U',
        productId: UNKNOWN,
        triggerProductIds: [shirt.id, foreignProduct.id],
        discountType: 'FIXED',
        discountAmount: 5,
        title: 'T',
      });
      expect(response.status).toBe(422);
      expect(paths(response.body)).toEqual(['productId', 'triggerProductIds.1']);
    });
  });

  describe('order bumps', () => {
    const bumpBody = () => ({
      name: 'Bump meia',
      productId: shirt.id,
      discountType: 'PERCENT',
      discountAmount: 10,
      title: 'Leve também a meia esportiva',
      triggerProductIds: [ebook.id],
      targetCategoryIds: [categoryId],
    });

    it('creates a bump priced from the product (every documented field), reads, lists and updates it', async () => {
      const created = await v1('POST', '/api/v1/order-bumps', bumpBody());
      expect(created.status).toBe(201);
      const orderBump = created.body.data.orderBump;
      expect(created.body).toEqual({
        success: true,
        data: {
          orderBump: {
            id: expect.any(String),
            storeId: tenant.storeId,
            name: 'Bump meia',
            description: null,
            type: 'PRODUCT',
            status: 'ACTIVE',
            productId: shirt.id,
            productVariantId: null,
            discountType: 'PERCENT',
            discountAmount: 10,
            title: 'Leve também a meia esportiva',
            subtitle: null,
            image: 'https://cdn.example.com/meia.jpg',
            price: 29.9,
            discountedPrice: 26.91,
            autoAdd: false,
            required: false,
            maxQuantity: 1,
            startsAt: null,
            endsAt: null,
            triggerProductIds: [ebook.id],
            targetCategoryIds: [categoryId],
            minCartTotal: null,
            maxCartTotal: null,
            position: 0,
            displayOrder: 0,
            isStandalone: false,
            standaloneSettings: null,
            createdAt: expect.any(String),
            updatedAt: orderBump.createdAt,
            buttonText: 'Adicionar ao pedido',
          },
        },
      });
      expect((await v1('GET', `/api/v1/order-bumps/${orderBump.id}`)).body).toEqual(created.body);
      const list = await v1('GET', '/api/v1/order-bumps?status=ACTIVE&limit=100');
      expect(list.body.data.orderBumps).toContainEqual(orderBump);

      const updated = await v1('PATCH', `/api/v1/order-bumps/${orderBump.id}`, {
        status: 'INACTIVE',
        productId: ebook.id,
        discountType: 'FIXED',
        discountAmount: 33.33,
        buttonText: 'Quero esta oferta',
        standaloneSettings: { layout: 'card' },
      });
      expect(updated.status).toBe(200);
      expect(updated.body.data.orderBump).toEqual({
        ...orderBump,
        status: 'INACTIVE',
        productId: ebook.id,
        discountType: 'FIXED',
        discountAmount: 33.33,
        price: 100,
        discountedPrice: 66.67,
        buttonText: 'Quero esta oferta',
        standaloneSettings: { layout: 'card' },
        updatedAt: expect.any(String),
      });
      expect((await v1('GET', `/api/v1/order-bumps/${orderBump.id}`)).body.data.orderBump).toEqual(
        updated.body.data.orderBump,
      );
      const inactive = await v1('GET', '/api/v1/order-bumps?status=INACTIVE');
      expect(inactive.body.data.orderBumps).toEqual([updated.body.data.orderBump]);
      expect((await v1('DELETE', `/api/v1/order-bumps/${orderBump.id}`)).status).toBe(204);
      expect((await v1('GET', `/api/v1/order-bumps/${orderBump.id}`)).status).toBe(404);
    });

    it.each([
      ['PERCENT 33.33 of 29.90 (half-cent rounds up)', 'PERCENT', 33.33, 19.93],
      ['PERCENT 100 is free', 'PERCENT', 100, 0],
      ['FIXED 0.1 is exact', 'FIXED', 0.1, 29.8],
      ['FIXED above the price never goes below 0', 'FIXED', 50, 0],
    ])('computes discountedPrice in exact cents: %s', async (_name, discountType, discountAmount, expected) => {
      const response = await v1('POST', '/api/v1/order-bumps', { ...bumpBody(), discountType, discountAmount });
      expect(response.status).toBe(201);
      expect(response.body.data.orderBump.price).toBe(29.9);
      expect(response.body.data.orderBump.discountedPrice).toBe(expected);
    });

    it('needs an image when the product has none (400 naming image), and keeps one that is sent', async () => {
      const noImage = await v1('POST', '/api/v1/order-bumps', { ...bumpBody(), productId: ebook.id });
      expect(noImage.status).toBe(400);
      expect(noImage.body.error.code).toBe('VALIDATION_ERROR');
      expect(paths(noImage.body)).toEqual(['image']);
      const withImage = await v1('POST', '/api/v1/order-bumps', {
        ...bumpBody(),
        productId: ebook.id,
        image: 'https://cdn.example.com/ebook.png',
      });
      expect(withImage.status).toBe(201);
      expect(withImage.body.data.orderBump.image).toBe('https://cdn.example.com/ebook.png');
    });

    it('prices a bump of a variant from the variant, and answers 422 for a variant of another product', async () => {
      const variant = await call(server.baseUrl, 'POST', `/admin/products/${shirt.id}/variants`, {
        headers: adminHeaders(server),
        body: { title: 'Branca / M', price: 35, stock: 3 },
      });
      expect(variant.status).toBe(201);
      const variantId = variant.body.data.variant.id;
      const ok = await v1('POST', '/api/v1/order-bumps', { ...bumpBody(), productVariantId: variantId });
      expect(ok.status).toBe(201);
      expect(ok.body.data.orderBump).toMatchObject({ productVariantId: variantId, price: 35, discountedPrice: 31.5 });
      const wrong = await v1('POST', '/api/v1/order-bumps', {
        ...bumpBody(),
        productId: ebook.id,
        image: 'https://cdn.example.com/e.png',
        productVariantId: variantId,
      });
      expect(wrong.status).toBe(422);
      expect(paths(wrong.body)).toEqual(['productVariantId']);
    });

    it('answers 422 naming every bad product and category reference, on create and update', async () => {
      const response = await v1('POST', '/api/v1/order-bumps', {
        ...bumpBody(),
        productId: foreignProduct.id,
        triggerProductIds: [ebook.id, UNKNOWN],
        targetCategoryIds: [UNKNOWN, categoryId],
      });
      expect(response.status).toBe(422);
      expect(response.body.error.code).toBe('REFERENCE_NOT_FOUND');
      expect(paths(response.body)).toEqual(['productId', 'triggerProductIds.1', 'targetCategoryIds.0']);
      const bump = (await v1('POST', '/api/v1/order-bumps', bumpBody())).body.data.orderBump;
      const update = await v1('PATCH', `/api/v1/order-bumps/${bump.id}`, { targetCategoryIds: [UNKNOWN] });
      expect(update.status).toBe(422);
      expect(paths(update.body)).toEqual(['targetCategoryIds.0']);
    });

    it.each([
      ['PERCENT above 100', { discountAmount: 101 }, 'discountAmount'],
      ['end not after start', { startsAt: '2030-01-02T00:00:00Z', endsAt: '2030-01-01T00:00:00Z' }, 'endsAt'],
      ['maxCartTotal below minCartTotal', { minCartTotal: 100, maxCartTotal: 50 }, 'maxCartTotal'],
      ['unknown type', { type: 'SERVICE' }, 'type'],
      ['position above 10000', { position: 10001 }, 'position'],
      ['image not a URI', { image: 'not a uri' }, 'image'],
    ])('rejects %s with 400 naming the field', async (_name, change, field) => {
      const response = await v1('POST', '/api/v1/order-bumps', { ...bumpBody(), ...change });
      expect(response.status).toBe(400);
      expect(paths(response.body)).toContain(field);
    });

    it('rejects an update that makes the resulting PERCENT discount exceed 100', async () => {
      const bump = (await v1('POST', '/api/v1/order-bumps', bumpBody())).body.data.orderBump;
      const response = await v1('PATCH', `/api/v1/order-bumps/${bump.id}`, { discountAmount: 120 });
      expect(response.status).toBe(400);
      expect(paths(response.body)).toEqual(['discountAmount']);
      expect((await v1('PATCH', `/api/v1/order-bumps/${bump.id}`, {})).status).toBe(400);
    });
  });

  it.each([
    ['kits', '/api/v1/kits', { name: 'K', price: 1, items: [{ productId: UNKNOWN, quantity: 1 }] }],
    ['gifts', '/api/v1/gifts', { name: 'G', productId: UNKNOWN, minCartTotal: 1 }],
    [
      'upsells',
      '/api/v1/upsells',
      { name: 'U', productId: UNKNOWN, discountType: 'FIXED', discountAmount: 1, title: 'T' },
    ],
    [
      'order-bumps',
      '/api/v1/order-bumps',
      { name: 'B', productId: UNKNOWN, discountType: 'FIXED', discountAmount: 1, title: 'T' },
    ],
  ])('%s: 404 for unknown and foreign ids, 403 without the scope, pagination bounds', async (_group, base, body) => {
    const created = await v1('POST', base, body);
    expect(created.status).toBe(422);
    const mine = await v1(
      'POST',
      base,
      JSON.parse(JSON.stringify(body).replaceAll(UNKNOWN, shirt.id)) as Record<string, unknown>,
    );
    expect(mine.status).toBe(201);
    const id = (Object.values(mine.body.data)[0] as { id: string }).id;
    for (const method of ['GET', 'PATCH', 'DELETE']) {
      const patch = method === 'PATCH' ? { name: 'Outro nome' } : undefined;
      const unknown = await v1(method, `${base}/${UNKNOWN}`, patch);
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe('RESOURCE_NOT_FOUND');
      const foreign = await v1(method, `${base}/${id}`, patch, other);
      expect(foreign.status).toBe(404);
      expect(foreign.body.error).toEqual(unknown.body.error);
    }
    expect((await v1('GET', `${base}/${id}`)).status).toBe(200);
    expect((await v1('GET', `${base}?limit=5`, undefined, other)).body.data.pagination.total).toBe(0);

    for (const [method, path] of [
      ['GET', base],
      ['POST', base],
      ['GET', `${base}/${id}`],
      ['DELETE', `${base}/${id}`],
    ] as const) {
      const denied = await v1(method, path, method === 'POST' ? body : undefined, productsOnly);
      expect(denied.status).toBe(403);
      expect(denied.body.error.code).toBe('AUTH_SCOPE_DENIED');
    }
    for (const query of ['limit=0', 'limit=101', 'page=0']) {
      const response = await v1('GET', `${base}?${query}`);
      expect(response.status).toBe(400);
      expect(paths(response.body)).toContain(query.split('=')[0]);
    }
    const paged = await v1('GET', `${base}?limit=1&page=1`);
    expect(paged.body.data.pagination).toMatchObject({ page: 1, limit: 1 });
  });
});
