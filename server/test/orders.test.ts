import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Input } from '../src/resources/operation.ts';
import { orderHandlers } from '../src/resources/orders/handlers.ts';
import { adminHeaders, call, createTenant, engines, startServer, type Tenant, type TestServer } from './harness.ts';
import { input, type RecordingDeps, recordingDeps } from './recording-deps.ts';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** First calls of a route compile its schemas in the request validator: slow on a busy machine. */
const FIRST_USE_TIMEOUT = 20_000;

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

const LABELS: Record<string, string> = {
  PENDING: 'Aguardando pagamento',
  PAID: 'Pago',
  SHIPPED: 'Enviado',
  DELIVERED: 'Entregue',
  CANCELLED: 'Cancelado',
  REFUNDED: 'Reembolsado',
};
const ALLOWED: Record<string, string[]> = {
  PENDING: ['PAID', 'CANCELLED'],
  PAID: ['SHIPPED', 'DELIVERED', 'CANCELLED', 'REFUNDED'],
  SHIPPED: ['DELIVERED', 'REFUNDED'],
  DELIVERED: ['REFUNDED'],
  CANCELLED: [],
  REFUNDED: [],
};
const STATUSES = Object.keys(ALLOWED);

describe.each(engines)('orders on %s', (engine) => {
  let server: TestServer;
  let tenant: Tenant;
  let other: Tenant;
  const v1 = (method: string, path: string, body?: unknown, who: Tenant = tenant) =>
    call(server.baseUrl, method, path, { headers: who.headers, ...(body !== undefined ? { body } : {}) });
  const admin = (method: string, path: string, body?: unknown) =>
    call(server.baseUrl, method, path, { headers: adminHeaders(server), ...(body !== undefined ? { body } : {}) });
  const createOrder = async (body: object = {}, who: Tenant = tenant) => {
    const response = await admin('POST', `/admin/stores/${who.storeId}/orders`, body);
    if (response.status !== 201) throw new Error(`createOrder answered ${response.status}`);
    return response.body.data.order;
  };

  beforeAll(async () => {
    server = await startServer({ engine });
    tenant = await createTenant(server);
    other = await createTenant(server);
  });
  afterAll(() => server.close());

  it(
    'creates an order from a product (201) and reads the same order back by id and in the list',
    async () => {
      const product = (
        await v1('POST', '/api/v1/products', {
          name: 'Camiseta Pedido',
          type: 'DIGITAL',
          price: 79.9,
          media: { images: ['https://cdn.example.com/camiseta.jpg'] },
        })
      ).body.data.product;
      const created = await admin('POST', `/admin/stores/${tenant.storeId}/orders`, {
        status: 'PAID',
        paymentMethod: 'pix',
        items: [{ productId: product.id, quantity: 2 }],
      });
      expect(created.status).toBe(201);
      const order = created.body.data.order;
      expect(created.body).toEqual({
        success: true,
        data: {
          order: {
            id: expect.any(String),
            storeId: tenant.storeId,
            status: 'PAID',
            statusLabel: 'Pago',
            total: 179.7,
            subtotal: 159.8,
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
                name: 'Camiseta Pedido',
                quantity: 2,
                price: 79.9,
                image: 'https://cdn.example.com/camiseta.jpg',
                variantId: null,
              },
            ],
            createdAt: expect.any(String),
            updatedAt: order.createdAt,
            tags: { ids: ['payment.pix', 'shipping.pac'], invoicing: [], delivery: [], custom: [] },
          },
        },
      });
      const read = await v1('GET', `/api/v1/orders/${order.id}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual({ success: true, data: { order } });
      const list = await v1('GET', '/api/v1/orders?limit=100');
      expect(list.body.data.orders.find((o: { id: string }) => o.id === order.id)).toEqual(order);
    },
    FIRST_USE_TIMEOUT,
  );

  it('fills every field with realistic defaults and takes the given ones as sent', async () => {
    const bare = await createOrder({});
    expect(bare).toMatchObject({
      status: 'PAID',
      subtotal: 79.9,
      total: 99.8,
      customer: defaultCustomer,
      shipping: defaultShipping,
      items: [{ name: 'Camiseta Básica Algodão', quantity: 1, price: 79.9, variantId: null }],
    });
    const full = {
      status: 'PENDING',
      paymentMethod: 'credit_card',
      installments: 3,
      discount: 10,
      notes: 'Presente',
      customer: { ...defaultCustomer, name: 'Empresa X', documentType: 'CNPJ', documentNumber: '11222333000181' },
      shippingAddress: { ...defaultAddress, city: 'Campinas' },
      shipping: { name: 'SEDEX', price: 35.5, carrier: 'Correios', turnaround: '2 dias úteis' },
      items: [
        { name: 'Caneca', quantity: 3, price: 10.1, image: 'https://cdn.example.com/caneca.jpg' },
        { name: 'Boné', quantity: 1, price: 0.2, image: 'https://cdn.example.com/bone.jpg', variantId: UNKNOWN_ID },
      ],
      tags: { ids: ['payment.credit_card'], invoicing: ['nf-pendente'], delivery: [], custom: ['vip'] },
    };
    const order = await createOrder(full);
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
        { ...full.items[0], id: expect.any(String), variantId: null },
        { ...full.items[1], id: expect.any(String) },
      ],
      createdAt: expect.any(String),
      updatedAt: order.createdAt,
    });
  });

  it.each([
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
  ])('rejects an admin order with %s: 400 VALIDATION_ERROR naming the field', async (_name, body, field) => {
    const response = await admin('POST', `/admin/stores/${tenant.storeId}/orders`, body);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
  });

  it('answers 422 REFERENCE_NOT_FOUND for a product that is not the store’s and 404 for an unknown store', async () => {
    const foreign = (await v1('POST', '/api/v1/products', { name: 'Produto Alheio', type: 'DIGITAL', price: 5 }, other))
      .body.data.product;
    const response = await admin('POST', `/admin/stores/${tenant.storeId}/orders`, {
      items: [{ quantity: 1 }, { productId: UNKNOWN_ID, quantity: 1 }, { productId: foreign.id, quantity: 1 }],
    });
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('REFERENCE_NOT_FOUND');
    expect(response.body.error.details).toEqual([
      { location: 'body', path: 'items.1.productId', reason: `produto não encontrado: ${UNKNOWN_ID}` },
      { location: 'body', path: 'items.2.productId', reason: `produto não encontrado: ${foreign.id}` },
    ]);
    const unknownStore = await admin('POST', `/admin/stores/${UNKNOWN_ID}/orders`, {});
    expect(unknownStore.status).toBe(404);
    expect(unknownStore.body.error.code).toBe('RESOURCE_NOT_FOUND');
    expect((await call(server.baseUrl, 'POST', `/admin/stores/${tenant.storeId}/orders`, { body: {} })).status).toBe(
      401,
    );
  });

  it('takes the product’s promotional price, a variant’s price and title, and a placeholder image', async () => {
    const product = (
      await v1('POST', '/api/v1/products', { name: 'Tênis Corrida', type: 'DIGITAL', price: 300, discountedPrice: 250 })
    ).body.data.product;
    const variant = (
      await admin('POST', `/admin/products/${product.id}/variants`, { title: '42', price: 280, stock: 1 })
    ).body.data.variant;
    const order = await createOrder({
      items: [
        { productId: product.id, quantity: 1 },
        { productId: product.id, variantId: variant.id, quantity: 1 },
        { productId: product.id, quantity: 1, name: 'Tênis (brinde)', price: 0 },
      ],
    });
    expect(order.items).toEqual([
      expect.objectContaining({ name: 'Tênis Corrida', price: 250, variantId: null }),
      expect.objectContaining({ name: 'Tênis Corrida - 42', price: 280, variantId: variant.id }),
      expect.objectContaining({ name: 'Tênis (brinde)', price: 0, variantId: null }),
    ]);
    expect(order.items[0].image).toMatch(/^https:\/\//);
    expect(order.subtotal).toBe(530);
    const wrongVariant = await admin('POST', `/admin/stores/${tenant.storeId}/orders`, {
      items: [{ productId: product.id, variantId: UNKNOWN_ID, quantity: 1 }],
    });
    expect(wrongVariant.status).toBe(422);
    expect(wrongVariant.body.error.details[0].path).toBe('items.0.variantId');
  });

  it('lists orders newest first, filtered by status and creation date, with pagination', async () => {
    const store = await createTenant(server);
    const created = [
      await createOrder({ status: 'PENDING' }, store),
      await createOrder({}, store),
      await createOrder({ status: 'PENDING' }, store),
    ];
    // Newest first; orders created in the same millisecond come in id order.
    type Listed = { id: string; createdAt: string; status: string };
    const newestFirst = (orders: Listed[]) =>
      [...orders]
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id))
        .map((order) => order.id);
    const ids = async (query: string) =>
      (await v1('GET', `/api/v1/orders${query}`, undefined, store)).body.data.orders.map((o: Listed) => o.id);
    const all = await v1('GET', '/api/v1/orders', undefined, store);
    expect(all.body.data).toEqual({
      orders: newestFirst(created).map((id) => created.find((order) => order.id === id)),
      pagination: { page: 1, limit: 20, total: 3, totalPages: 1 },
    });
    expect(await ids('?status=PENDING')).toEqual(newestFirst(created.filter((o) => o.status === 'PENDING')));
    const middle = created[1].createdAt;
    expect(await ids(`?createdFrom=${encodeURIComponent(middle)}`)).toEqual(
      newestFirst(created.filter((o) => o.createdAt >= middle)),
    );
    expect(await ids(`?createdTo=${encodeURIComponent(middle)}`)).toEqual(
      newestFirst(created.filter((o) => o.createdAt < middle)),
    );
    const paged = await v1('GET', '/api/v1/orders?limit=2&page=2', undefined, store);
    expect(paged.body.data.orders.map((o: Listed) => o.id)).toEqual(newestFirst(created).slice(2));
    expect(paged.body.data.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 });
    const elsewhere = await v1('GET', '/api/v1/orders?limit=100', undefined, other);
    expect(elsewhere.body.data.orders.some((o: Listed) => created.some((c) => c.id === o.id))).toBe(false);
  });

  it.each([
    ['limit 0', '/api/v1/orders?limit=0', 'limit'],
    ['limit 101', '/api/v1/orders?limit=101', 'limit'],
    ['page 0', '/api/v1/orders?page=0', 'page'],
    ['an unknown status filter', '/api/v1/orders?status=LOST', 'status'],
    ['a createdFrom that is not a date-time', '/api/v1/orders?createdFrom=ontem', 'createdFrom'],
  ])('rejects an order list with %s (400)', async (_name, url, field) => {
    const response = await v1('GET', url);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
  });

  it('answers the documented status shape: from PAID exactly SHIPPED, DELIVERED, CANCELLED, REFUNDED', async () => {
    const order = await createOrder({});
    const response = await v1('GET', `/api/v1/orders/${order.id}/status`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      success: true,
      data: {
        orderId: order.id,
        currentStatus: 'PAID',
        currentStatusLabel: 'Pago',
        allowedStatuses: [
          { value: 'SHIPPED', label: 'Enviado' },
          { value: 'DELIVERED', label: 'Entregue' },
          { value: 'CANCELLED', label: 'Cancelado' },
          { value: 'REFUNDED', label: 'Reembolsado' },
        ],
      },
    });
  });

  it.each(STATUSES)(
    'from %s advertises and applies exactly the allowed statuses, refusing the others',
    async (from) => {
      const probe = await createOrder({ status: from });
      const status = await v1('GET', `/api/v1/orders/${probe.id}/status`);
      expect(status.body.data).toEqual({
        orderId: probe.id,
        currentStatus: from,
        currentStatusLabel: LABELS[from],
        allowedStatuses: (ALLOWED[from] ?? []).map((value) => ({ value, label: LABELS[value] })),
      });
      for (const to of STATUSES) {
        const order = await createOrder({ status: from });
        const response = await v1('POST', `/api/v1/orders/${order.id}/status`, { status: to });
        if (ALLOWED[from]?.includes(to)) {
          expect(response.status).toBe(200);
          expect(response.body.data.order).toEqual({
            ...order,
            status: to,
            statusLabel: LABELS[to],
            updatedAt: expect.any(String),
          });
          expect((await v1('GET', `/api/v1/orders/${order.id}`)).body.data.order).toEqual(response.body.data.order);
        } else {
          expect(response.status).toBe(422);
          expect(response.body).toEqual({
            success: false,
            error: {
              code: 'INVALID_STATUS_TRANSITION',
              message: `Não é possível mudar o status de ${LABELS[from]} para ${LABELS[to]}.`,
            },
            meta: { status: 422, timestamp: expect.any(String) },
          });
          expect((await v1('GET', `/api/v1/orders/${order.id}`)).body.data.order).toEqual(order);
        }
      }
    },
  );

  it('appends the note of each status change to the order notes', async () => {
    const order = await createOrder({});
    const shipped = await v1('POST', `/api/v1/orders/${order.id}/status`, {
      status: 'SHIPPED',
      note: 'Enviado pelos Correios.',
    });
    expect(shipped.body.data.order.notes).toBe('Enviado pelos Correios.');
    const delivered = await v1('POST', `/api/v1/orders/${order.id}/status`, { status: 'DELIVERED', note: 'Entregue.' });
    expect(delivered.body.data.order.notes).toBe('Enviado pelos Correios.\nEntregue.');
    const refunded = await v1('POST', `/api/v1/orders/${order.id}/status`, { status: 'REFUNDED' });
    expect(refunded.body.data.order.notes).toBe('Enviado pelos Correios.\nEntregue.');
    const status = await v1('GET', `/api/v1/orders/${order.id}/status`);
    expect(status.body.data).toMatchObject({ currentStatus: 'REFUNDED', allowedStatuses: [] });
  });

  it.each([
    ['no status', {}, 'status'],
    ['an unknown status', { status: 'LOST' }, 'status'],
    ['an empty note', { status: 'SHIPPED', note: '' }, 'note'],
    ['a note over 500 characters', { status: 'SHIPPED', note: 'x'.repeat(501) }, 'note'],
    ['an unknown field', { status: 'SHIPPED', reason: 'x' }, 'reason'],
  ])('rejects a status change with %s (400)', async (_name, body, field) => {
    const order = await createOrder({});
    const response = await v1('POST', `/api/v1/orders/${order.id}/status`, body);
    expect(response.status).toBe(400);
    expect(response.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
  });

  it('records tracking events with defaults, links each to the one before, and updates the order tracking', async () => {
    const order = await createOrder({});
    const first = await admin('POST', `/admin/orders/${order.id}/tracking-events`, { status: 'label_generated' });
    expect(first.status).toBe(201);
    const code = first.body.data.event.trackingCode;
    expect(code).toMatch(/^BR[0-9]{9}BR$/);
    expect(first.body).toEqual({
      success: true,
      data: {
        event: {
          id: expect.any(String),
          status: 'label_generated',
          label: 'Etiqueta gerada',
          previousStatus: null,
          previousLabel: null,
          createdAt: expect.any(String),
          occurredAt: first.body.data.event.createdAt,
          locationLabel: '',
          latitude: 0,
          longitude: 0,
          carrier: 'Correios',
          trackingCode: code,
          source: 'admin_api',
          provider: 'correios',
          replayed: false,
          retryCount: 0,
          processingState: 'processed',
        },
      },
    });
    const posted = {
      status: 'posted',
      occurredAt: '2026-11-21T08:15:00.000Z',
      locationLabel: 'Agência Pinheiros - São Paulo - SP',
      latitude: -23.5614,
      longitude: -46.6823,
      carrier: 'Correios',
      source: 'carrier_api',
      provider: 'correios',
    };
    const second = await admin('POST', `/admin/orders/${order.id}/tracking-events`, posted);
    expect(second.status).toBe(201);
    expect(second.body.data.event).toEqual({
      ...posted,
      id: expect.any(String),
      label: 'Postado',
      previousStatus: 'label_generated',
      previousLabel: 'Etiqueta gerada',
      createdAt: expect.any(String),
      trackingCode: code,
      replayed: false,
      retryCount: 0,
      processingState: 'processed',
    });
    const timeline = await v1('GET', `/api/v1/orders/${order.id}/tracking`);
    expect(timeline.status).toBe(200);
    expect(timeline.body).toEqual({
      success: true,
      data: {
        events: [first.body.data.event, second.body.data.event],
        pagination: { page: 1, limit: 50, total: 2, totalPages: 1 },
      },
    });
    const paged = await v1('GET', `/api/v1/orders/${order.id}/tracking?limit=1&page=2`);
    expect(paged.body.data).toEqual({
      events: [second.body.data.event],
      pagination: { page: 2, limit: 1, total: 2, totalPages: 2 },
    });
    const read = (await v1('GET', `/api/v1/orders/${order.id}`)).body.data.order;
    expect(read).toEqual({
      ...order,
      tracking: {
        code,
        url: `https://rastreamento.correios.com.br/app/index.php?objeto=${code}`,
        status: 'posted',
        statusLabel: 'Postado',
        updatedAt: '2026-11-21T08:15:00.000Z',
      },
      updatedAt: expect.any(String),
    });
  });

  it.each([
    ['in_transit', 'Em trânsito'],
    ['out_for_delivery', 'Saiu para entrega'],
    ['delivered', 'Entregue'],
    ['delivery_failed', 'Falha na entrega'],
    ['returned', 'Devolvido'],
  ])('labels the tracking status %s as %s and keeps a given tracking code', async (status, label) => {
    const order = await createOrder({});
    const event = await admin('POST', `/admin/orders/${order.id}/tracking-events`, {
      status,
      trackingCode: 'BR123456789BR',
    });
    expect(event.body.data.event).toMatchObject({ status, label, trackingCode: 'BR123456789BR' });
    const read = (await v1('GET', `/api/v1/orders/${order.id}`)).body.data.order;
    expect(read.tracking).toMatchObject({ code: 'BR123456789BR', status, statusLabel: label });
  });

  it(
    'keeps the timeline a single chain when carrier events arrive concurrently',
    async () => {
      const order = await createOrder({});
      const statuses = ['label_generated', 'posted', 'in_transit', 'out_for_delivery', 'delivered'];
      const responses = await Promise.all(
        statuses.map((status) => admin('POST', `/admin/orders/${order.id}/tracking-events`, { status })),
      );
      expect(responses.map((response) => response.status)).toEqual(statuses.map(() => 201));
      const events = (await v1('GET', `/api/v1/orders/${order.id}/tracking`)).body.data.events;
      expect(events).toHaveLength(statuses.length);
      expect(events[0].previousStatus).toBeNull();
      for (let i = 1; i < events.length; i += 1) {
        expect(events[i]).toMatchObject({ previousStatus: events[i - 1].status, previousLabel: events[i - 1].label });
      }
      // The first stored event settles the order's code; every later one, however concurrent, reuses it.
      expect(new Set(events.map((event: { trackingCode: string }) => event.trackingCode)).size).toBe(1);
      const read = (await v1('GET', `/api/v1/orders/${order.id}`)).body.data.order;
      expect(read.tracking).toMatchObject({ code: events[0].trackingCode, status: events[4].status });
    },
    FIRST_USE_TIMEOUT,
  );

  it('keeps each order’s timeline apart and starts an empty one with an empty page', async () => {
    const order = await createOrder({});
    const empty = await v1('GET', `/api/v1/orders/${order.id}/tracking`);
    expect(empty.body.data).toEqual({ events: [], pagination: { page: 1, limit: 50, total: 0, totalPages: 0 } });
  });

  it.each([
    ['no status', {}, 'status'],
    ['an unknown status', { status: 'lost' }, 'status'],
    ['a latitude beyond 90', { status: 'posted', latitude: 91 }, 'latitude'],
    ['an empty location', { status: 'posted', locationLabel: '' }, 'locationLabel'],
  ])('rejects a tracking event with %s (400)', async (_name, body, field) => {
    const order = await createOrder({});
    const response = await admin('POST', `/admin/orders/${order.id}/tracking-events`, body);
    expect(response.status).toBe(400);
    expect(response.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
  });

  it('answers 404 RESOURCE_NOT_FOUND for unknown and foreign order ids on every order operation', async () => {
    const order = await createOrder({});
    for (const id of [UNKNOWN_ID, order.id]) {
      const who = id === order.id ? other : tenant;
      for (const [method, url, body] of [
        ['GET', `/api/v1/orders/${id}`, undefined],
        ['GET', `/api/v1/orders/${id}/status`, undefined],
        ['POST', `/api/v1/orders/${id}/status`, { status: 'SHIPPED' }],
        ['GET', `/api/v1/orders/${id}/tracking`, undefined],
      ] as const) {
        const response = await v1(method, url, body, who);
        expect(response.status, `${method} ${url}`).toBe(404);
        expect(response.body.error.code).toBe('RESOURCE_NOT_FOUND');
      }
    }
    const tracking = await admin('POST', `/admin/orders/${UNKNOWN_ID}/tracking-events`, { status: 'posted' });
    expect(tracking.status).toBe(404);
    expect((await v1('GET', `/api/v1/orders/${order.id}`)).body.data.order.status).toBe('PAID');
  });

  it('rejects limit 0, 101 and page 0 on the tracking timeline (400)', async () => {
    const order = await createOrder({});
    for (const query of ['limit=0', 'limit=101', 'page=0']) {
      const response = await v1('GET', `/api/v1/orders/${order.id}/tracking?${query}`);
      expect(response.status, query).toBe(400);
    }
  });

  it('denies keys without the orders scopes (403 AUTH_SCOPE_DENIED)', async () => {
    const order = await createOrder({});
    const productsOnly = await createTenant(server, ['products:read']);
    const readOnly = await createTenant(server, ['orders:read']);
    const ownOrder = await createOrder({}, readOnly);
    for (const [method, url] of [
      ['GET', '/api/v1/orders'],
      ['GET', `/api/v1/orders/${order.id}`],
      ['GET', `/api/v1/orders/${order.id}/status`],
      ['GET', `/api/v1/orders/${order.id}/tracking`],
    ] as const) {
      const response = await v1(method, url, undefined, productsOnly);
      expect(response.status, url).toBe(403);
      expect(response.body.error.code).toBe('AUTH_SCOPE_DENIED');
    }
    expect((await v1('GET', `/api/v1/orders/${ownOrder.id}`, undefined, readOnly)).status).toBe(200);
    const change = await v1('POST', `/api/v1/orders/${ownOrder.id}/status`, { status: 'SHIPPED' }, readOnly);
    expect(change.status).toBe(403);
    expect(change.body.error.code).toBe('AUTH_SCOPE_DENIED');
  });
});

describe.each(engines)('order domain events on %s', (engine) => {
  let recording: RecordingDeps;
  let storeId: string;
  const createOrder = async (body: Input<'createOrder'>['body']) => {
    const reply = await orderHandlers.createOrder(input<'createOrder'>({ path: { storeId }, body }), recording.deps);
    return reply.body.data.order;
  };
  const changeStatus = async (orderId: string, status: Input<'changeOrderStatus'>['body']['status']) => {
    const reply = await orderHandlers.changeOrderStatus(
      input<'changeOrderStatus'>({ storeId, path: { orderId }, body: { status } }),
      recording.deps,
    );
    return reply.body.data.order;
  };

  beforeAll(async () => {
    recording = await recordingDeps(engine);
    storeId = randomUUID();
    await recording.deps.repositories.stores.createStore({
      id: storeId,
      name: 'Loja Eventos',
      currency: 'BRL',
      createdAt: new Date().toISOString(),
    });
  });
  afterAll(() => recording.close());

  it('emits CUSTOMER_CREATED for a new buyer, then ORDER_CREATED and ORDER_PAID with the order read shape', async () => {
    recording.events.length = 0;
    const order = await createOrder({});
    const customer = (await recording.deps.repositories.customers.listCustomers(storeId, {})).customers[0];
    expect(customer).toMatchObject({ documentNumber: '39053344705', ordersCount: 1, totalSpent: 99.8 });
    expect(recording.events).toEqual([
      { storeId, name: 'CUSTOMER_CREATED', payload: { customer: { ...customer, ordersCount: 1, totalSpent: 99.8 } } },
      { storeId, name: 'ORDER_CREATED', payload: { order } },
      { storeId, name: 'ORDER_PAID', payload: { order } },
    ]);
    recording.events.length = 0;
    const again = await createOrder({});
    expect(recording.events.map((event) => event.name)).toEqual(['ORDER_CREATED', 'ORDER_PAID']);
    expect(recording.events[0]?.payload).toEqual({ order: again });
  });

  it('emits only ORDER_CREATED for an order that is not paid, and the event of each status change', async () => {
    recording.events.length = 0;
    const pending = await createOrder({ status: 'PENDING' });
    expect(recording.events.map((event) => event.name)).toEqual(['ORDER_CREATED']);
    for (const [orderId, status, name] of [
      [pending.id, 'PAID', 'ORDER_PAID'],
      [pending.id, 'SHIPPED', 'ORDER_SHIPPED'],
      [pending.id, 'DELIVERED', 'ORDER_DELIVERED'],
      [pending.id, 'REFUNDED', 'ORDER_REFUNDED'],
      [(await createOrder({})).id, 'CANCELLED', 'ORDER_CANCELLED'],
    ] as const) {
      recording.events.length = 0;
      const order = await changeStatus(orderId, status);
      expect(recording.events).toEqual([{ storeId, name, payload: { order } }]);
      expect(order.status).toBe(status);
    }
    recording.events.length = 0;
    await expect(changeStatus(pending.id, 'SHIPPED')).rejects.toMatchObject({ status: 422 });
    expect(recording.events).toEqual([]);
  });
});
