import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { referenceNotFound, UNKNOWN } from '../../../test/catalog.ts';
import { type AdminApi, type Api, describeEngines, malformed, test, withoutDefaults } from '../../../test/fixture.ts';
import { describeDomainEvents, input } from '../../../test/recording-deps.ts';
import type { AbandonedCart, AdminAbandonedCartCreate, ProductCreate, VariantCreate } from '../../../test/records.ts';
import type { ById } from '../../../test/store-scoped.ts';
import { expectInvalid, expectNotFoundAlike, expectScopeDenied, outOfBounds } from '../../../test/store-scoped.ts';
import { abandonedCartHandlers } from './handlers.ts';

/** The documented list order: newest first; records created in the same millisecond come in id order. */
const newestFirst = (records: AbandonedCart[]) =>
  [...records].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id)).map((r) => r.id);

const cartBody = (productId: string): AdminAbandonedCartCreate => ({
  customer: { name: 'Ana Lima', email: 'ana.lima@example.com', phone: '+5521998887766' },
  items: [{ productId, quantity: 1 }],
});

/** A DIGITAL product of the client's store; its id. */
async function productOf(client: Api, body: Partial<ProductCreate>): Promise<string> {
  const { data } = await client.POST('/api/v1/products', { body: malformed({ type: 'DIGITAL', ...body }) });
  return data?.data.product.id ?? UNKNOWN;
}

/** createAbandonedCart through the admin API for the given store. */
const recordCart = (admin: AdminApi, storeId: string, body: AdminAbandonedCartCreate) =>
  admin.POST('/admin/stores/{storeId}/abandoned-carts', { params: { path: { storeId } }, body });

describeEngines('abandoned carts', () => {
  test('createAbandonedCart records a cart through admin (201) with lines taken from the products; getAbandonedCartById and listAbandonedCarts read it back', async ({
    api,
    admin,
    tenant,
  }) => {
    const shirt = await productOf(api, {
      name: 'Camiseta Orgânica',
      price: 89.9,
      discountedPrice: 79.9,
      media: { images: ['https://cdn.example.com/camiseta.jpg', 'https://cdn.example.com/verso.jpg'] },
    });
    const variant = (
      await admin.POST('/admin/products/{productId}/variants', {
        params: { path: { productId: shirt } },
        body: withoutDefaults<VariantCreate>({ title: 'M / Verde', price: 84.9 }),
      })
    ).data?.data.variant.id;
    const mug = await productOf(api, { name: 'Caneca Artesanal', price: 49.9 });
    const body = {
      customer: { name: 'João Pereira', email: 'joao.pereira@example.com', phone: '+5521998877665' },
      items: [
        { productId: shirt, variantId: variant ?? null, quantity: 2 },
        { productId: mug, quantity: 1 },
        { productId: shirt, quantity: 1 },
      ],
      abandonedAt: '2026-11-19T22:58:10.000Z',
    };
    const created = await recordCart(admin, tenant.storeId, body);
    expect(created.response.status).toBe(201);
    const cart = created.data?.data.abandonedCart;
    expect(created.data).toEqual({
      success: true,
      data: {
        abandonedCart: {
          id: expect.any(String),
          storeId: tenant.storeId,
          customer: body.customer,
          items: [
            {
              productId: shirt,
              variantId: variant,
              name: 'Camiseta Orgânica - M / Verde',
              quantity: 2,
              price: 84.9,
              image: 'https://cdn.example.com/camiseta.jpg',
            },
            { productId: mug, variantId: null, name: 'Caneca Artesanal', quantity: 1, price: 49.9, image: null },
            {
              productId: shirt,
              variantId: null,
              name: 'Camiseta Orgânica',
              quantity: 1,
              price: 79.9,
              image: 'https://cdn.example.com/camiseta.jpg',
            },
          ],
          subtotal: 299.6,
          currency: 'BRL',
          recoveryUrl: `https://checkout.example.com/recuperar/${cart?.id}`,
          recovered: false,
          recoveredOrderId: null,
          abandonedAt: '2026-11-19T22:58:10.000Z',
          createdAt: expect.any(String),
          updatedAt: cart?.createdAt,
        },
      },
    });
    const read = await api.GET('/api/v1/abandoned-carts/{abandonedCartId}', {
      params: { path: { abandonedCartId: cart?.id ?? UNKNOWN } },
    });
    expect(read.response.status).toBe(200);
    expect(read.data).toEqual({ success: true, data: { abandonedCart: cart } });
    const list = await api.GET('/api/v1/abandoned-carts', { params: { query: { limit: 100 } } });
    expect(list.data?.data.abandonedCarts.find((listed) => listed.id === cart?.id)).toEqual(cart);
  });

  test('createAbandonedCart defaults abandonedAt to now and a missing phone to null', async ({
    api,
    admin,
    tenant,
  }) => {
    const mug = await productOf(api, { name: 'Caneca Simples', price: 20 });
    const response = await recordCart(admin, tenant.storeId, {
      customer: { name: 'Ana', email: 'ana@example.com' },
      items: [{ productId: mug, quantity: 3 }],
    });
    const cart = response.data?.data.abandonedCart;
    expect(cart).toMatchObject({ customer: { name: 'Ana', email: 'ana@example.com', phone: null }, subtotal: 60 });
    expect(cart?.abandonedAt).toBe(cart?.createdAt);
  });

  test('createAbandonedCart answers 422 REFERENCE_NOT_FOUND for products and variants that are not the store’s, and 404 for an unknown store', async ({
    api,
    admin,
    otherStore,
    tenant,
  }) => {
    const own = await productOf(api, { name: 'Produto Próprio', price: 10 });
    const foreign = await productOf(otherStore, { name: 'Produto Alheio', price: 10 });
    const response = await recordCart(admin, tenant.storeId, {
      ...cartBody(own),
      items: [
        { productId: own, quantity: 1 },
        { productId: UNKNOWN, quantity: 1 },
        { productId: foreign, quantity: 1 },
        { productId: own, variantId: UNKNOWN, quantity: 1 },
      ],
    });
    expect(response.response.status).toBe(422);
    expect(response.error).toEqual(
      referenceNotFound({
        'items.1.productId': `produto não encontrado: ${UNKNOWN}`,
        'items.2.productId': `produto não encontrado: ${foreign}`,
        'items.3.variantId': `variante não encontrada: ${UNKNOWN}`,
      }),
    );
    const unknownStore = await recordCart(admin, UNKNOWN, cartBody(own));
    expect(unknownStore.response.status).toBe(404);
    expect(unknownStore.error).toMatchObject({ error: { code: 'RESOURCE_NOT_FOUND' } });
  });

  test.for([
    ['no customer', { items: [{ productId: UNKNOWN, quantity: 1 }] }, 'customer'],
    ['no items', { customer: { name: 'Ana', email: 'ana@example.com' }, items: [] }, 'items'],
    ['a quantity of 0', { ...cartBody(UNKNOWN), items: [{ productId: UNKNOWN, quantity: 0 }] }, 'items.0.quantity'],
    ['an item without product', { ...cartBody(UNKNOWN), items: [{ quantity: 1 }] }, 'items.0.productId'],
    [
      'a customer e-mail that is not one',
      { ...cartBody(UNKNOWN), customer: { name: 'Ana', email: 'ana' } },
      'customer.email',
    ],
    [
      'a customer phone over 20 characters',
      { ...cartBody(UNKNOWN), customer: { name: 'Ana', email: 'ana@example.com', phone: '1'.repeat(21) } },
      'customer.phone',
    ],
  ] as const)(
    'createAbandonedCart rejects a cart with %s: 400 VALIDATION_ERROR naming the field',
    async ([, body, field], { admin, tenant }) => {
      expectInvalid(await recordCart(admin, tenant.storeId, malformed(body)), field);
    },
  );

  test('listAbandonedCarts lists newest first, filtered by recovered and creation date, with pagination', async ({
    api,
    admin,
    tenant,
  }) => {
    const product = await productOf(api, { name: 'Produto do Carrinho', price: 15 });
    const carts: AbandonedCart[] = [];
    for (let i = 0; i < 3; i += 1) {
      const cart = (await recordCart(admin, tenant.storeId, cartBody(product))).data?.data.abandonedCart;
      if (cart) carts.push(cart);
    }
    const ids = async (query: { recovered?: boolean; createdFrom?: string; createdTo?: string }) =>
      (await api.GET('/api/v1/abandoned-carts', { params: { query } })).data?.data.abandonedCarts.map((c) => c.id);
    expect(await ids({})).toEqual(newestFirst(carts));
    expect(await ids({ recovered: false })).toEqual(newestFirst(carts));
    expect(await ids({ recovered: true })).toEqual([]);
    const middle = carts[1]?.createdAt ?? '';
    expect(await ids({ createdFrom: middle })).toEqual(newestFirst(carts.filter((c) => c.createdAt >= middle)));
    expect(await ids({ createdTo: middle })).toEqual(newestFirst(carts.filter((c) => c.createdAt < middle)));
    const paged = await api.GET('/api/v1/abandoned-carts', { params: { query: { limit: 1, page: 3 } } });
    expect(paged.data?.data.pagination).toEqual({ page: 3, limit: 1, total: 3, totalPages: 3 });
    expect(paged.data?.data.abandonedCarts.map((c) => c.id)).toEqual(newestFirst(carts).slice(2));
  });

  test.for([...outOfBounds, [{ recovered: 'talvez' }, 'recovered']] as const)(
    'listAbandonedCarts rejects %o (400)',
    async ([query, field], { api }) => {
      expectInvalid(await api.GET('/api/v1/abandoned-carts', { params: { query: malformed(query) } }), field);
    },
  );

  test('getAbandonedCartById answers 404 for unknown and foreign cart ids; listAbandonedCarts and getAbandonedCartById answer 403 to a key without abandoned-carts:read', async ({
    api,
    admin,
    otherStore,
    tenant,
    withScopes,
  }) => {
    const product = await productOf(api, { name: 'Produto Carrinho Privado', price: 15 });
    const cart = (await recordCart(admin, tenant.storeId, cartBody(product))).data?.data.abandonedCart;
    const cartId = cart?.id ?? UNKNOWN;
    const read: ById = (client, abandonedCartId) =>
      client.GET('/api/v1/abandoned-carts/{abandonedCartId}', { params: { path: { abandonedCartId } } });
    await expectNotFoundAlike([read], read, { api, otherStore }, cartId);
    const leadsOnly = await withScopes(['leads:read']);
    expectScopeDenied([await leadsOnly.GET('/api/v1/abandoned-carts'), await read(leadsOnly, cartId)]);
  });
});

describeDomainEvents('abandoned cart domain events', (recording) => {
  const { storeId } = recording;

  test('createAbandonedCart emits CART_ABANDONED with the cart in its read shape', async () => {
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
