import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { abandonedCartHandlers } from '../src/handlers/abandoned-carts.ts';
import { leadHandlers } from '../src/handlers/leads.ts';
import { adminHeaders, call, createTenant, engines, startServer, type Tenant, type TestServer } from './harness.ts';
import { input, type RecordingDeps, recordingDeps } from './recording-deps.ts';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** First calls of a route compile its schemas in the request validator: slow on a busy machine. */
const FIRST_USE_TIMEOUT = 20_000;

type Listed = { id: string; createdAt: string };
/** The documented list order: newest first; records created in the same millisecond come in id order. */
const newestFirst = (records: Listed[]) =>
  [...records].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id)).map((r) => r.id);

describe.each(engines)('leads and abandoned carts on %s', (engine) => {
  let server: TestServer;
  let tenant: Tenant;
  let other: Tenant;
  const v1 = (method: string, path: string, body?: unknown, who: Tenant = tenant) =>
    call(server.baseUrl, method, path, { headers: who.headers, ...(body !== undefined ? { body } : {}) });
  const admin = (method: string, path: string, body?: unknown) =>
    call(server.baseUrl, method, path, { headers: adminHeaders(server), ...(body !== undefined ? { body } : {}) });
  const createLead = async (body: object, who: Tenant = tenant) => {
    const response = await admin('POST', `/admin/stores/${who.storeId}/leads`, body);
    if (response.status !== 201) throw new Error(`createLead answered ${response.status}`);
    return response.body.data.lead;
  };
  const createProduct = async (body: object, who: Tenant = tenant) =>
    (await v1('POST', '/api/v1/products', { type: 'DIGITAL', ...body }, who)).body.data.product;
  const cartBody = (productId: string) => ({
    customer: { name: 'Ana Lima', email: 'ana.lima@example.com', phone: '+5521998887766' },
    items: [{ productId, quantity: 1 }],
  });

  beforeAll(async () => {
    server = await startServer({ engine });
    tenant = await createTenant(server);
    other = await createTenant(server);
  });
  afterAll(() => server.close());

  describe('leads', () => {
    it(
      'captures a lead through admin (201) and reads it back through v1 by id and in the list',
      async () => {
        const body = {
          name: 'João Souza',
          email: 'joao.souza@example.com',
          phone: '+5511900001111',
          source: 'popup',
          tags: ['newsletter'],
        };
        const created = await admin('POST', `/admin/stores/${tenant.storeId}/leads`, body);
        expect(created.status).toBe(201);
        const lead = created.body.data.lead;
        expect(created.body).toEqual({
          success: true,
          data: {
            lead: {
              ...body,
              id: expect.any(String),
              storeId: tenant.storeId,
              createdAt: expect.any(String),
              updatedAt: lead.createdAt,
            },
          },
        });
        const read = await v1('GET', `/api/v1/leads/${lead.id}`);
        expect(read.status).toBe(200);
        expect(read.body).toEqual({ success: true, data: { lead } });
        const list = await v1('GET', '/api/v1/leads?limit=100');
        expect(list.body.data.leads.find((l: Listed) => l.id === lead.id)).toEqual(lead);
      },
      FIRST_USE_TIMEOUT,
    );

    it('defaults a lead with only an e-mail: no name, no phone, source checkout, no tags', async () => {
      const lead = await createLead({ email: 'so.email@example.com' });
      expect(lead).toEqual({
        id: expect.any(String),
        storeId: tenant.storeId,
        name: null,
        email: 'so.email@example.com',
        phone: null,
        source: 'checkout',
        tags: [],
        createdAt: expect.any(String),
        updatedAt: lead.createdAt,
      });
    });

    it.each([
      ['no e-mail', { name: 'Sem Email' }, 'email'],
      ['an e-mail that is not one', { email: 'joao' }, 'email'],
      [
        'a phone over 20 characters (the lead read shape holds 20)',
        { email: 'a@b.com', phone: '1'.repeat(21) },
        'phone',
      ],
      ['an empty source', { email: 'a@b.com', source: '' }, 'source'],
      ['21 tags', { email: 'a@b.com', tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, 'tags'],
      ['an unknown field', { email: 'a@b.com', score: 10 }, 'score'],
    ])('rejects a lead with %s: 400 VALIDATION_ERROR naming the field', async (_name, body, field) => {
      const response = await admin('POST', `/admin/stores/${tenant.storeId}/leads`, body);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
      expect(response.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
    });

    it('answers 404 for a lead of an unknown store', async () => {
      const response = await admin('POST', `/admin/stores/${UNKNOWN_ID}/leads`, { email: 'a@b.com' });
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('RESOURCE_NOT_FOUND');
    });

    it('lists leads newest first, searched by name or e-mail and filtered by source, with pagination', async () => {
      const store = await createTenant(server);
      const a = await createLead({ name: 'Ana Lima', email: 'ana@x.com', source: 'popup' }, store);
      const b = await createLead({ name: 'Bruno', email: 'LIMA.b@x.com', source: 'checkout' }, store);
      const c = await createLead({ email: 'carla@x.com', source: 'popup' }, store);
      const ids = async (query: string) =>
        (await v1('GET', `/api/v1/leads${query}`, undefined, store)).body.data.leads.map((l: Listed) => l.id);
      expect(await ids('')).toEqual(newestFirst([a, b, c]));
      expect(await ids('?search=lima')).toEqual(newestFirst([a, b]));
      expect(await ids('?source=popup')).toEqual(newestFirst([a, c]));
      expect(await ids('?search=carla&source=checkout')).toEqual([]);
      const paged = await v1('GET', '/api/v1/leads?limit=2&page=2', undefined, store);
      expect(paged.body.data).toEqual({
        leads: [expect.objectContaining({ id: newestFirst([a, b, c])[2] })],
        pagination: { page: 2, limit: 2, total: 3, totalPages: 2 },
      });
    });

    it.each(['limit=0', 'limit=101', 'page=0'])('rejects a lead list with %s (400)', async (query) => {
      const response = await v1('GET', `/api/v1/leads?${query}`);
      expect(response.status).toBe(400);
      expect(response.body.error.details[0].path).toBe(query.split('=')[0]);
    });

    it('answers 404 for unknown and foreign lead ids, and 403 to a key without leads:read', async () => {
      const lead = await createLead({ email: 'privado@example.com' });
      for (const [id, who] of [
        [UNKNOWN_ID, tenant],
        [lead.id, other],
      ] as const) {
        const response = await v1('GET', `/api/v1/leads/${id}`, undefined, who);
        expect(response.status).toBe(404);
        expect(response.body.error.code).toBe('RESOURCE_NOT_FOUND');
      }
      const productsOnly = await createTenant(server, ['products:read']);
      for (const url of ['/api/v1/leads', `/api/v1/leads/${lead.id}`]) {
        const response = await v1('GET', url, undefined, productsOnly);
        expect(response.status, url).toBe(403);
        expect(response.body.error.code).toBe('AUTH_SCOPE_DENIED');
      }
    });
  });

  describe('abandoned carts', () => {
    it(
      'records a cart through admin (201) with lines taken from the products, and reads it back',
      async () => {
        const shirt = await createProduct({
          name: 'Camiseta Orgânica',
          price: 89.9,
          discountedPrice: 79.9,
          media: { images: ['https://cdn.example.com/camiseta.jpg', 'https://cdn.example.com/verso.jpg'] },
        });
        const variant = (
          await admin('POST', `/admin/products/${shirt.id}/variants`, { title: 'M / Verde', price: 84.9 })
        ).body.data.variant;
        const mug = await createProduct({ name: 'Caneca Artesanal', price: 49.9 });
        const body = {
          customer: { name: 'João Pereira', email: 'joao.pereira@example.com', phone: '+5521998877665' },
          items: [
            { productId: shirt.id, variantId: variant.id, quantity: 2 },
            { productId: mug.id, quantity: 1 },
            { productId: shirt.id, quantity: 1 },
          ],
          abandonedAt: '2026-11-19T22:58:10.000Z',
        };
        const created = await admin('POST', `/admin/stores/${tenant.storeId}/abandoned-carts`, body);
        expect(created.status).toBe(201);
        const cart = created.body.data.abandonedCart;
        expect(created.body).toEqual({
          success: true,
          data: {
            abandonedCart: {
              id: expect.any(String),
              storeId: tenant.storeId,
              customer: body.customer,
              items: [
                {
                  productId: shirt.id,
                  variantId: variant.id,
                  name: 'Camiseta Orgânica - M / Verde',
                  quantity: 2,
                  price: 84.9,
                  image: 'https://cdn.example.com/camiseta.jpg',
                },
                { productId: mug.id, variantId: null, name: 'Caneca Artesanal', quantity: 1, price: 49.9, image: null },
                {
                  productId: shirt.id,
                  variantId: null,
                  name: 'Camiseta Orgânica',
                  quantity: 1,
                  price: 79.9,
                  image: 'https://cdn.example.com/camiseta.jpg',
                },
              ],
              subtotal: 299.6,
              currency: 'BRL',
              recoveryUrl: `https://checkout.example.com/recuperar/${cart.id}`,
              recovered: false,
              recoveredOrderId: null,
              abandonedAt: '2026-11-19T22:58:10.000Z',
              createdAt: expect.any(String),
              updatedAt: cart.createdAt,
            },
          },
        });
        const read = await v1('GET', `/api/v1/abandoned-carts/${cart.id}`);
        expect(read.status).toBe(200);
        expect(read.body).toEqual({ success: true, data: { abandonedCart: cart } });
        const list = await v1('GET', '/api/v1/abandoned-carts?limit=100');
        expect(list.body.data.abandonedCarts.find((c: Listed) => c.id === cart.id)).toEqual(cart);
      },
      FIRST_USE_TIMEOUT,
    );

    it('defaults abandonedAt to now and a missing phone to null', async () => {
      const mug = await createProduct({ name: 'Caneca Simples', price: 20 });
      const response = await admin('POST', `/admin/stores/${tenant.storeId}/abandoned-carts`, {
        customer: { name: 'Ana', email: 'ana@example.com' },
        items: [{ productId: mug.id, quantity: 3 }],
      });
      const cart = response.body.data.abandonedCart;
      expect(cart).toMatchObject({ customer: { name: 'Ana', email: 'ana@example.com', phone: null }, subtotal: 60 });
      expect(cart.abandonedAt).toBe(cart.createdAt);
    });

    it('answers 422 REFERENCE_NOT_FOUND for products and variants that are not the store’s', async () => {
      const own = await createProduct({ name: 'Produto Próprio', price: 10 });
      const foreign = await createProduct({ name: 'Produto Alheio', price: 10 }, other);
      const response = await admin('POST', `/admin/stores/${tenant.storeId}/abandoned-carts`, {
        ...cartBody(own.id),
        items: [
          { productId: own.id, quantity: 1 },
          { productId: UNKNOWN_ID, quantity: 1 },
          { productId: foreign.id, quantity: 1 },
          { productId: own.id, variantId: UNKNOWN_ID, quantity: 1 },
        ],
      });
      expect(response.status).toBe(422);
      expect(response.body).toEqual({
        success: false,
        error: {
          code: 'REFERENCE_NOT_FOUND',
          message: expect.any(String),
          details: [
            { location: 'body', path: 'items.1.productId', reason: `produto não encontrado: ${UNKNOWN_ID}` },
            { location: 'body', path: 'items.2.productId', reason: `produto não encontrado: ${foreign.id}` },
            { location: 'body', path: 'items.3.variantId', reason: `variante não encontrada: ${UNKNOWN_ID}` },
          ],
        },
        meta: { status: 422, timestamp: expect.any(String) },
      });
      const unknownStore = await admin('POST', `/admin/stores/${UNKNOWN_ID}/abandoned-carts`, cartBody(own.id));
      expect(unknownStore.status).toBe(404);
      expect(unknownStore.body.error.code).toBe('RESOURCE_NOT_FOUND');
    });

    it.each([
      ['no customer', { items: [{ productId: UNKNOWN_ID, quantity: 1 }] }, 'customer'],
      ['no items', { customer: { name: 'Ana', email: 'ana@example.com' }, items: [] }, 'items'],
      [
        'a quantity of 0',
        { ...cartBody(UNKNOWN_ID), items: [{ productId: UNKNOWN_ID, quantity: 0 }] },
        'items.0.quantity',
      ],
      ['an item without product', { ...cartBody(UNKNOWN_ID), items: [{ quantity: 1 }] }, 'items.0.productId'],
      [
        'a customer e-mail that is not one',
        { ...cartBody(UNKNOWN_ID), customer: { name: 'Ana', email: 'ana' } },
        'customer.email',
      ],
      [
        'a customer phone over 20 characters',
        { ...cartBody(UNKNOWN_ID), customer: { name: 'Ana', email: 'ana@example.com', phone: '1'.repeat(21) } },
        'customer.phone',
      ],
    ])('rejects a cart with %s: 400 VALIDATION_ERROR naming the field', async (_name, body, field) => {
      const response = await admin('POST', `/admin/stores/${tenant.storeId}/abandoned-carts`, body);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
      expect(response.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
    });

    it('lists carts newest first, filtered by recovered and creation date, with pagination', async () => {
      const store = await createTenant(server);
      const product = await createProduct({ name: 'Produto do Carrinho', price: 15 }, store);
      const carts: Listed[] = [];
      for (let i = 0; i < 3; i += 1) {
        const response = await admin('POST', `/admin/stores/${store.storeId}/abandoned-carts`, cartBody(product.id));
        carts.push(response.body.data.abandonedCart);
      }
      const ids = async (query: string) =>
        (await v1('GET', `/api/v1/abandoned-carts${query}`, undefined, store)).body.data.abandonedCarts.map(
          (c: Listed) => c.id,
        );
      expect(await ids('')).toEqual(newestFirst(carts));
      expect(await ids('?recovered=false')).toEqual(newestFirst(carts));
      expect(await ids('?recovered=true')).toEqual([]);
      const middle = carts[1]?.createdAt ?? '';
      expect(await ids(`?createdFrom=${encodeURIComponent(middle)}`)).toEqual(
        newestFirst(carts.filter((c) => c.createdAt >= middle)),
      );
      expect(await ids(`?createdTo=${encodeURIComponent(middle)}`)).toEqual(
        newestFirst(carts.filter((c) => c.createdAt < middle)),
      );
      const paged = await v1('GET', '/api/v1/abandoned-carts?limit=1&page=3', undefined, store);
      expect(paged.body.data.pagination).toEqual({ page: 3, limit: 1, total: 3, totalPages: 3 });
      expect(paged.body.data.abandonedCarts.map((c: Listed) => c.id)).toEqual(newestFirst(carts).slice(2));
    });

    it.each([
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['page=0', 'page'],
      ['recovered=talvez', 'recovered'],
    ])('rejects a cart list with %s (400)', async (query, field) => {
      const response = await v1('GET', `/api/v1/abandoned-carts?${query}`);
      expect(response.status).toBe(400);
      expect(response.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
    });

    it('answers 404 for unknown and foreign cart ids, and 403 to a key without abandoned-carts:read', async () => {
      const product = await createProduct({ name: 'Produto Carrinho Privado', price: 15 });
      const cart = (await admin('POST', `/admin/stores/${tenant.storeId}/abandoned-carts`, cartBody(product.id))).body
        .data.abandonedCart;
      for (const [id, who] of [
        [UNKNOWN_ID, tenant],
        [cart.id, other],
      ] as const) {
        const response = await v1('GET', `/api/v1/abandoned-carts/${id}`, undefined, who);
        expect(response.status).toBe(404);
        expect(response.body.error.code).toBe('RESOURCE_NOT_FOUND');
      }
      const leadsOnly = await createTenant(server, ['leads:read']);
      for (const url of ['/api/v1/abandoned-carts', `/api/v1/abandoned-carts/${cart.id}`]) {
        const response = await v1('GET', url, undefined, leadsOnly);
        expect(response.status, url).toBe(403);
        expect(response.body.error.code).toBe('AUTH_SCOPE_DENIED');
      }
    });
  });
});

describe.each(engines)('lead and cart domain events on %s', (engine) => {
  let recording: RecordingDeps;
  const storeId = randomUUID();

  beforeAll(async () => {
    recording = await recordingDeps(engine);
    await recording.deps.repositories.stores.create({
      id: storeId,
      name: 'Loja Eventos',
      currency: 'BRL',
      createdAt: new Date().toISOString(),
    });
  });
  afterAll(() => recording.close());

  it('emits LEAD_CREATED with the lead and CART_ABANDONED with the cart, in their read shapes', async () => {
    const lead = (
      await leadHandlers.createLead(
        input<'createLead'>({ path: { storeId }, body: { email: 'lead@example.com' } }),
        recording.deps,
      )
    ).body.data.lead;
    expect(recording.events).toEqual([{ storeId, name: 'LEAD_CREATED', payload: { lead } }]);
    recording.events.length = 0;
    const productId = randomUUID();
    const at = new Date().toISOString();
    await recording.deps.repositories.products.createProduct({
      id: productId,
      storeId,
      name: 'Caneca',
      slug: 'caneca',
      type: 'DIGITAL',
      status: 'ACTIVE',
      price: 30,
      discountedPrice: null,
      costPrice: null,
      currency: 'BRL',
      media: { images: [], videos: [], documents: [] },
      stock: 1,
      sku: null,
      barcode: null,
      description: 'Caneca',
      shortDescription: null,
      logistics: null,
      featured: false,
      createdAt: at,
      updatedAt: at,
      trackInventory: false,
      seo: null,
    });
    const abandonedCart = (
      await abandonedCartHandlers.createAbandonedCart(
        input<'createAbandonedCart'>({
          path: { storeId },
          body: { customer: { name: 'Ana', email: 'ana@example.com' }, items: [{ productId, quantity: 2 }] },
        }),
        recording.deps,
      )
    ).body.data.abandonedCart;
    expect(abandonedCart.subtotal).toBe(60);
    expect(recording.events).toEqual([{ storeId, name: 'CART_ABANDONED', payload: { abandonedCart } }]);
  });
});
