import createClient from 'openapi-fetch';
import { expect } from 'vitest';
import type { paths } from '../../../../generated/openapi.ts';
import { detailPaths, newProduct, referenceNotFound } from '../../../test/catalog.ts';
import { clientOf, describeEngines, malformed, test, withoutDefaults } from '../../../test/fixture.ts';
import { createTenant } from '../../../test/harness.ts';
import { newOrder } from '../../../test/orders.ts';
import type { AdminOrderCreate, Order, VariantCreate } from '../../../test/records.ts';
import { atOrderId as at } from '../../../test/records.ts';
import {
  type ById,
  expectInvalid,
  expectNotFoundAlike,
  expectScopeDenied,
  outOfBounds,
} from '../../../test/store-scoped.ts';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const ordersOf = (storeId: string) => ({ params: { path: { storeId } } });

const defaultCustomer = {
  name: 'Maria Oliveira',
  email: 'maria.oliveira@example.com',
  phone: '+5511987654321',
  documentType: 'CPF',
  documentNumber: '39053344705',
};
const defaultAddress = {
  street: 'Rua das Flores',
  number: '123',
  neighborhood: 'Jardim Paulista',
  city: 'São Paulo',
  state: 'SP',
  zipcode: '01415-000',
};
const defaultShipping = { name: 'PAC', price: 19.9, carrier: 'Correios', turnaround: '5 dias úteis' };
const defaultTags = { ids: ['payment.pix', 'shipping.pac'], invoicing: [], delivery: [], custom: [] };
/** What createOrder makes of an empty body: a PIX purchase of one T-shirt shipped by PAC. */
const defaultOrder = (storeId: string) => ({
  id: expect.any(String),
  storeId,
  status: 'PAID',
  statusLabel: 'Pago',
  total: 99.8,
  subtotal: 79.9,
  discount: null,
  currency: 'BRL',
  paymentMethod: 'pix',
  installments: 1,
  notes: null,
  customer: defaultCustomer,
  shippingAddress: defaultAddress,
  shipping: defaultShipping,
  tracking: null,
  items: [
    {
      id: expect.any(String),
      name: 'Camiseta Básica Algodão',
      quantity: 1,
      price: 79.9,
      image: 'https://cdn.storefront.example.com/p/camiseta-basica-1.jpg',
      variantId: null,
    },
  ],
  createdAt: expect.any(String),
  updatedAt: expect.any(String),
  tags: defaultTags,
});
/** The image of a line whose product has none. */
const NO_IMAGE = 'https://cdn.storefront.example.com/p/sem-imagem.jpg';

/** Newest first; orders created in the same millisecond come in id order. */
const newestFirst = (orders: readonly Order[]): string[] =>
  [...orders]
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id))
    .map((order) => order.id);

describeEngines('orders', () => {
  test('createOrder (201) takes a product line; getOrderById and listOrders read the same order back', async ({
    api,
    admin,
    tenant,
  }) => {
    const product = await newProduct(api, 'Camiseta Pedido', {
      price: 79.9,
      media: { images: ['https://cdn.example.com/camiseta.jpg'] },
    });
    const created = await admin.POST('/admin/stores/{storeId}/orders', {
      ...ordersOf(tenant.storeId),
      body: withoutDefaults<AdminOrderCreate>({
        status: 'PAID',
        paymentMethod: 'pix',
        items: [{ productId: product.id, quantity: 2 }],
      }),
    });
    expect(created.response.status).toBe(201);
    const order = created.data?.data.order;
    expect(created.data).toEqual({
      success: true,
      data: {
        order: {
          ...defaultOrder(tenant.storeId),
          total: 179.7,
          subtotal: 159.8,
          items: [
            {
              id: expect.any(String),
              name: 'Camiseta Pedido',
              quantity: 2,
              price: 79.9,
              image: 'https://cdn.example.com/camiseta.jpg',
              variantId: null,
            },
          ],
          updatedAt: order?.createdAt,
        },
      },
    });
    const read = await api.GET('/api/v1/orders/{orderId}', at(order?.id ?? UNKNOWN));
    expect(read.response.status).toBe(200);
    expect(read.data).toEqual({ success: true, data: { order } });
    const list = await api.GET('/api/v1/orders', { params: { query: { limit: 100 } } });
    expect(list.data).toEqual({
      success: true,
      data: { orders: [order], pagination: { page: 1, limit: 100, total: 1, totalPages: 1 } },
    });
  });

  test('createOrder fills every field with realistic defaults and takes the given ones as sent', async ({
    api,
    admin,
    tenant,
  }) => {
    const bare = await newOrder(admin, tenant.storeId);
    expect(bare).toEqual({ ...defaultOrder(tenant.storeId), updatedAt: bare.createdAt });
    const mug = { name: 'Caneca', quantity: 3, price: 10.1, image: 'https://cdn.example.com/caneca.jpg' };
    const cap = {
      name: 'Boné',
      quantity: 1,
      price: 0.2,
      image: 'https://cdn.example.com/bone.jpg',
      variantId: UNKNOWN,
    };
    const full = {
      status: 'PENDING',
      paymentMethod: 'credit_card',
      installments: 3,
      discount: 10,
      notes: 'Presente',
      customer: { ...defaultCustomer, name: 'Empresa X', documentType: 'CNPJ', documentNumber: '11222333000181' },
      shippingAddress: { ...defaultAddress, city: 'Campinas' },
      shipping: { name: 'SEDEX', price: 35.5, carrier: 'Correios', turnaround: '2 dias úteis' },
      items: [mug, cap],
      tags: { ids: ['payment.credit_card'], invoicing: ['nf-pendente'], delivery: [], custom: ['vip'] },
    } satisfies AdminOrderCreate;
    const order = await newOrder(admin, tenant.storeId, full);
    expect(order).toEqual({
      ...full,
      id: expect.any(String),
      storeId: tenant.storeId,
      statusLabel: 'Aguardando pagamento',
      subtotal: 30.5,
      total: 56,
      currency: 'BRL',
      tracking: null,
      items: [
        { ...mug, id: expect.any(String), variantId: null },
        { ...cap, id: expect.any(String) },
      ],
      createdAt: expect.any(String),
      updatedAt: order.createdAt,
    });
    for (const stored of [bare, order]) {
      expect((await api.GET('/api/v1/orders/{orderId}', at(stored.id))).data?.data.order).toEqual(stored);
    }
  });

  test.for([
    ['an empty items list', { items: [] }, 'items'],
    ['a quantity of 0', { items: [{ quantity: 0 }] }, 'items.0.quantity'],
    ['an unknown status', { status: 'LOST' }, 'status'],
    ['a payment method in capitals', { paymentMethod: 'PIX' }, 'paymentMethod'],
    ['a tag id without a dot', { tags: { ids: ['pix'], invoicing: [], delivery: [], custom: [] } }, 'tags.ids.0'],
    ['a discount above subtotal plus shipping', { discount: 1000 }, 'discount'],
    [
      'a CPF with punctuation',
      { customer: { ...defaultCustomer, documentNumber: '390.533.447-05' } },
      'customer.documentNumber',
    ],
    ['a CNPJ of 11 digits', { customer: { ...defaultCustomer, documentType: 'CNPJ' } }, 'customer.documentNumber'],
    [
      'a document type other than CPF/CNPJ',
      { customer: { ...defaultCustomer, documentType: 'RG' } },
      'customer.documentType',
    ],
    ['a buyer e-mail that is not one', { customer: { ...defaultCustomer, email: 'maria' } }, 'customer.email'],
    ['a buyer phone over 20 characters', { customer: { ...defaultCustomer, phone: '1'.repeat(21) } }, 'customer.phone'],
  ] as const)(
    'createOrder rejects %s: 400 VALIDATION_ERROR naming the field',
    async ([, body, field], { api, admin, tenant }) => {
      expectInvalid(
        await admin.POST('/admin/stores/{storeId}/orders', {
          ...ordersOf(tenant.storeId),
          body: malformed(body),
        }),
        field,
      );
      expect((await api.GET('/api/v1/orders')).data?.data.pagination.total).toBe(0);
    },
  );

  test('createOrder answers 422 REFERENCE_NOT_FOUND for a product not the store’s, 404 for an unknown store, 401 without the admin token', async ({
    api,
    admin,
    otherStore,
    server,
    tenant,
  }) => {
    const foreign = await newProduct(otherStore, 'Produto Alheio', { price: 5 });
    const refused = await admin.POST('/admin/stores/{storeId}/orders', {
      ...ordersOf(tenant.storeId),
      body: withoutDefaults<AdminOrderCreate>({
        items: [{ quantity: 1 }, { productId: UNKNOWN, quantity: 1 }, { productId: foreign.id, quantity: 1 }],
      }),
    });
    expect(refused.response.status).toBe(422);
    expect(refused.error).toEqual(
      referenceNotFound({
        'items.1.productId': `produto não encontrado: ${UNKNOWN}`,
        'items.2.productId': `produto não encontrado: ${foreign.id}`,
      }),
    );
    const unknownStore = await admin.POST('/admin/stores/{storeId}/orders', {
      ...ordersOf(UNKNOWN),
      body: withoutDefaults<AdminOrderCreate>({}),
    });
    expect(unknownStore.response.status).toBe(404);
    expect(unknownStore.error).toMatchObject({ error: { code: 'RESOURCE_NOT_FOUND' } });
    const anonymous = createClient<paths>({ baseUrl: server.baseUrl });
    const unauthenticated = await anonymous.POST('/admin/stores/{storeId}/orders', {
      ...ordersOf(tenant.storeId),
      body: withoutDefaults<AdminOrderCreate>({}),
    });
    expect(unauthenticated.response.status).toBe(401);
    expect((await api.GET('/api/v1/orders')).data?.data.pagination.total).toBe(0);
  });

  test('createOrder takes the product’s promotional price, a variant’s price and title, and a placeholder image', async ({
    api,
    admin,
    tenant,
  }) => {
    const product = await newProduct(api, 'Tênis Corrida', { price: 300, discountedPrice: 250 });
    const variant = (
      await admin.POST('/admin/products/{productId}/variants', {
        params: { path: { productId: product.id } },
        body: withoutDefaults<VariantCreate>({ title: '42', price: 280, stock: 1 }),
      })
    ).data?.data.variant;
    const order = await newOrder(admin, tenant.storeId, {
      items: [
        { productId: product.id, quantity: 1 },
        { productId: product.id, variantId: variant?.id, quantity: 1 },
        { productId: product.id, quantity: 1, name: 'Tênis (brinde)', price: 0 },
      ],
    });
    expect(order.items).toEqual([
      { id: expect.any(String), name: 'Tênis Corrida', quantity: 1, price: 250, image: NO_IMAGE, variantId: null },
      {
        id: expect.any(String),
        name: 'Tênis Corrida - 42',
        quantity: 1,
        price: 280,
        image: NO_IMAGE,
        variantId: variant?.id,
      },
      { id: expect.any(String), name: 'Tênis (brinde)', quantity: 1, price: 0, image: NO_IMAGE, variantId: null },
    ]);
    expect(order.subtotal).toBe(530);
    const wrongVariant = await admin.POST('/admin/stores/{storeId}/orders', {
      ...ordersOf(tenant.storeId),
      body: withoutDefaults<AdminOrderCreate>({ items: [{ productId: product.id, variantId: UNKNOWN, quantity: 1 }] }),
    });
    expect(wrongVariant.response.status).toBe(422);
    expect(wrongVariant.error).toMatchObject({ error: { code: 'REFERENCE_NOT_FOUND' } });
    expect(detailPaths(wrongVariant.error)).toEqual(['items.0.variantId']);
  });

  test('listOrders lists newest first, filtered by status and creation date, with pagination, never another store’s', async ({
    api,
    admin,
    otherStore,
    tenant,
  }) => {
    const created = [
      await newOrder(admin, tenant.storeId, { status: 'PENDING' }),
      await newOrder(admin, tenant.storeId),
      await newOrder(admin, tenant.storeId, { status: 'PENDING' }),
    ];
    const byId = new Map(created.map((order) => [order.id, order]));
    const listed = async (query: NonNullable<paths['/api/v1/orders']['get']['parameters']['query']>) =>
      (await api.GET('/api/v1/orders', { params: { query } })).data?.data.orders.map((order) => order.id);
    const all = await api.GET('/api/v1/orders');
    expect(all.data?.data).toEqual({
      orders: newestFirst(created).map((id) => byId.get(id)),
      pagination: { page: 1, limit: 20, total: 3, totalPages: 1 },
    });
    expect(await listed({ status: 'PENDING' })).toEqual(
      newestFirst(created.filter((order) => order.status === 'PENDING')),
    );
    const middle = created[1]?.createdAt ?? '';
    expect(await listed({ createdFrom: middle })).toEqual(
      newestFirst(created.filter((order) => order.createdAt >= middle)),
    );
    expect(await listed({ createdTo: middle })).toEqual(
      newestFirst(created.filter((order) => order.createdAt < middle)),
    );
    const paged = await api.GET('/api/v1/orders', { params: { query: { limit: 2, page: 2 } } });
    expect(paged.data?.data).toEqual({
      orders: newestFirst(created)
        .slice(2)
        .map((id) => byId.get(id)),
      pagination: { page: 2, limit: 2, total: 3, totalPages: 2 },
    });
    expect((await otherStore.GET('/api/v1/orders', { params: { query: { limit: 100 } } })).data?.data).toEqual({
      orders: [],
      pagination: { page: 1, limit: 100, total: 0, totalPages: 0 },
    });
  });

  test.for([...outOfBounds, [{ status: 'LOST' }, 'status'], [{ createdFrom: 'ontem' }, 'createdFrom']] as const)(
    'listOrders rejects %o (400 VALIDATION_ERROR)',
    async ([query, field], { api }) => {
      expectInvalid(await api.GET('/api/v1/orders', { params: { query: malformed(query) } }), field);
    },
  );

  test('getOrderById answers 404 RESOURCE_NOT_FOUND alike for an unknown and another store’s order', async ({
    api,
    admin,
    otherStore,
    tenant,
  }) => {
    const order = await newOrder(admin, tenant.storeId);
    const read: ById = (client, id) => client.GET('/api/v1/orders/{orderId}', at(id));
    await expectNotFoundAlike([read], read, { api, otherStore }, order.id);
  });

  test('listOrders and getOrderById need the orders:read scope (403 AUTH_SCOPE_DENIED)', async ({
    admin,
    server,
    tenant,
    withScopes,
  }) => {
    const order = await newOrder(admin, tenant.storeId);
    const productsOnly = await withScopes(['products:read']);
    expectScopeDenied([
      await productsOnly.GET('/api/v1/orders'),
      await productsOnly.GET('/api/v1/orders/{orderId}', at(order.id)),
    ]);
    const reader = await createTenant(server, ['orders:read']);
    const own = await newOrder(admin, reader.storeId);
    const read = await clientOf(server, reader).GET('/api/v1/orders/{orderId}', at(own.id));
    expect(read.response.status).toBe(200);
    expect(read.data?.data.order).toEqual(own);
  });
});
