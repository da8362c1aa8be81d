import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { readContract } from '../../../../lib/contract.ts';
import { clientOf, describeEngines, malformed, test } from '../../../test/fixture.ts';
import { createTenant, engines } from '../../../test/harness.ts';
import { newOrder } from '../../../test/orders.ts';
import { input, type RecordingDeps, recordingDeps, validatedBody } from '../../../test/recording-deps.ts';
import type { OrderStatus } from '../../../test/records.ts';
import { atOrderId as at } from '../../../test/records.ts';
import { type ById, expectInvalid, expectNotFoundAlike, expectScopeDenied } from '../../../test/store-scoped.ts';
import type { Input } from '../operation.ts';
import { orderHandlers } from './handlers.ts';

/** The contract's tables, read as the contract writes them (the server reads them through its own reader). */
const { 'x-labels': LABELS, 'x-manual-transitions': ALLOWED } = readContract().pointer(
  '#/components/schemas/OrderStatus',
) as unknown as { 'x-labels': Record<OrderStatus, string>; 'x-manual-transitions': Record<OrderStatus, OrderStatus[]> };
const STATUSES = Object.keys(ALLOWED) as OrderStatus[];

describeEngines('order status', () => {
  test('getOrderStatus answers the documented shape: from PAID exactly SHIPPED, DELIVERED, CANCELLED, REFUNDED', async ({
    api,
    admin,
    tenant,
  }) => {
    const order = await newOrder(admin, tenant.storeId);
    const status = await api.GET('/api/v1/orders/{orderId}/status', at(order.id));
    expect(status.response.status).toBe(200);
    expect(status.data).toEqual({
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

  test.for(STATUSES)(
    'from %s getOrderStatus advertises and changeOrderStatus applies exactly the allowed statuses, refusing the others (422)',
    async (from, { api, admin, tenant }) => {
      const probe = await newOrder(admin, tenant.storeId, { status: from });
      expect((await api.GET('/api/v1/orders/{orderId}/status', at(probe.id))).data?.data).toEqual({
        orderId: probe.id,
        currentStatus: from,
        currentStatusLabel: LABELS[from],
        allowedStatuses: ALLOWED[from].map((value) => ({ value, label: LABELS[value] })),
      });
      for (const to of STATUSES) {
        const order = await newOrder(admin, tenant.storeId, { status: from });
        const changed = await api.POST('/api/v1/orders/{orderId}/status', { ...at(order.id), body: { status: to } });
        const read = (await api.GET('/api/v1/orders/{orderId}', at(order.id))).data?.data.order;
        if (ALLOWED[from].includes(to)) {
          expect(changed.response.status).toBe(200);
          const moved = { ...order, status: to, statusLabel: LABELS[to], updatedAt: expect.any(String) };
          expect(changed.data).toEqual({ success: true, data: { order: moved } });
          expect(read).toEqual(changed.data?.data.order);
        } else {
          expect(changed.response.status).toBe(422);
          expect(changed.error).toEqual({
            success: false,
            error: {
              code: 'INVALID_STATUS_TRANSITION',
              message: `Não é possível mudar o status de ${LABELS[from]} para ${LABELS[to]}.`,
            },
            meta: { status: 422, timestamp: expect.any(String) },
          });
          expect(read).toEqual(order);
        }
      }
    },
  );

  test('changeOrderStatus appends the note of each change to the order notes', async ({ api, admin, tenant }) => {
    const order = await newOrder(admin, tenant.storeId);
    const change = async (body: { status: OrderStatus; note?: string }) =>
      (await api.POST('/api/v1/orders/{orderId}/status', { ...at(order.id), body })).data?.data.order.notes;
    expect(await change({ status: 'SHIPPED', note: 'Enviado pelos Correios.' })).toBe('Enviado pelos Correios.');
    expect(await change({ status: 'DELIVERED', note: 'Entregue.' })).toBe('Enviado pelos Correios.\nEntregue.');
    expect(await change({ status: 'REFUNDED' })).toBe('Enviado pelos Correios.\nEntregue.');
    expect((await api.GET('/api/v1/orders/{orderId}', at(order.id))).data?.data.order).toEqual({
      ...order,
      status: 'REFUNDED',
      statusLabel: 'Reembolsado',
      notes: 'Enviado pelos Correios.\nEntregue.',
      updatedAt: expect.any(String),
    });
    expect((await api.GET('/api/v1/orders/{orderId}/status', at(order.id))).data?.data).toEqual({
      orderId: order.id,
      currentStatus: 'REFUNDED',
      currentStatusLabel: 'Reembolsado',
      allowedStatuses: [],
    });
  });

  test.for([
    ['no status', {}, 'status'],
    ['an unknown status', { status: 'LOST' }, 'status'],
    ['an empty note', { status: 'SHIPPED', note: '' }, 'note'],
    ['a note over 500 characters', { status: 'SHIPPED', note: 'x'.repeat(501) }, 'note'],
    ['an unknown field', { status: 'SHIPPED', reason: 'x' }, 'reason'],
  ] as const)(
    'changeOrderStatus rejects %s (400 VALIDATION_ERROR)',
    async ([, body, field], { api, admin, tenant }) => {
      const order = await newOrder(admin, tenant.storeId);
      expectInvalid(
        await api.POST('/api/v1/orders/{orderId}/status', {
          ...at(order.id),
          body: malformed(body),
        }),
        field,
      );
      expect((await api.GET('/api/v1/orders/{orderId}', at(order.id))).data?.data.order).toEqual(order);
    },
  );

  test('getOrderStatus and changeOrderStatus answer 404 RESOURCE_NOT_FOUND for unknown and foreign orders, changing nothing', async ({
    api,
    admin,
    otherStore,
    tenant,
  }) => {
    const order = await newOrder(admin, tenant.storeId);
    const read: ById = (client, id) => client.GET('/api/v1/orders/{orderId}/status', at(id));
    const change: ById = (client, id) =>
      client.POST('/api/v1/orders/{orderId}/status', { ...at(id), body: { status: 'SHIPPED' } });
    await expectNotFoundAlike([read, change], read, { api, otherStore }, order.id);
    expect((await api.GET('/api/v1/orders/{orderId}', at(order.id))).data?.data.order).toEqual(order);
  });

  test('getOrderStatus needs orders:read and changeOrderStatus orders:write (403 AUTH_SCOPE_DENIED)', async ({
    api,
    admin,
    server,
    tenant,
    withScopes,
  }) => {
    const order = await newOrder(admin, tenant.storeId);
    const productsOnly = await withScopes(['products:read']);
    const reader = await createTenant(server, ['orders:read']);
    const own = await newOrder(admin, reader.storeId);
    const readOnly = clientOf(server, reader);
    expectScopeDenied([
      await productsOnly.GET('/api/v1/orders/{orderId}/status', at(order.id)),
      await readOnly.POST('/api/v1/orders/{orderId}/status', { ...at(own.id), body: { status: 'SHIPPED' } }),
    ]);
    expect((await readOnly.GET('/api/v1/orders/{orderId}/status', at(own.id))).response.status).toBe(200);
    expect((await readOnly.GET('/api/v1/orders/{orderId}', at(own.id))).data?.data.order).toEqual(own);
    expect((await api.GET('/api/v1/orders/{orderId}', at(order.id))).data?.data.order).toEqual(order);
  });
});

describe.each(engines)('order domain events on %s', (engine) => {
  let recording: RecordingDeps;
  const storeId = randomUUID();
  /** createOrder with a body as the validator hands it over (the contract's defaults filled in where left out). */
  const createOrder = async (body: Partial<Input<'createOrder'>['body']>) => {
    const reply = await orderHandlers.createOrder(
      input<'createOrder'>({ path: { storeId }, body: validatedBody('createOrder', body) }),
      recording.deps,
    );
    return reply.body.data.order;
  };
  const changeOrderStatus = async (orderId: string, status: OrderStatus) => {
    const reply = await orderHandlers.changeOrderStatus(
      input<'changeOrderStatus'>({ storeId, path: { orderId }, body: { status } }),
      recording.deps,
    );
    return reply.body.data.order;
  };

  beforeAll(async () => {
    recording = await recordingDeps(engine);
    await recording.deps.repositories.stores.createStore({
      id: storeId,
      name: 'Loja Eventos',
      currency: 'BRL',
      createdAt: new Date().toISOString(),
    });
  });
  afterAll(() => recording.close());

  test('createOrder emits CUSTOMER_CREATED for a new buyer, then ORDER_CREATED and ORDER_PAID with the order read shape', async () => {
    recording.events.length = 0;
    const order = await createOrder({});
    const { customers } = await recording.deps.repositories.customers.listCustomers(storeId, {});
    expect(customers).toEqual([
      {
        id: expect.any(String),
        storeId,
        name: 'Maria Oliveira',
        email: 'maria.oliveira@example.com',
        phone: '+5511987654321',
        documentType: 'CPF',
        documentNumber: '39053344705',
        ordersCount: 1,
        totalSpent: 99.8,
        createdAt: order.createdAt,
        updatedAt: order.createdAt,
      },
    ]);
    expect(recording.events).toEqual([
      { storeId, name: 'CUSTOMER_CREATED', payload: { customer: customers[0] } },
      { storeId, name: 'ORDER_CREATED', payload: { order } },
      { storeId, name: 'ORDER_PAID', payload: { order } },
    ]);
    recording.events.length = 0;
    const again = await createOrder({});
    expect(recording.events).toEqual([
      { storeId, name: 'ORDER_CREATED', payload: { order: again } },
      { storeId, name: 'ORDER_PAID', payload: { order: again } },
    ]);
  });

  test('createOrder emits only ORDER_CREATED for an order not paid; changeOrderStatus emits the event of each change', async () => {
    recording.events.length = 0;
    const pending = await createOrder({ status: 'PENDING' });
    expect(recording.events).toEqual([{ storeId, name: 'ORDER_CREATED', payload: { order: pending } }]);
    for (const [orderId, status, name] of [
      [pending.id, 'PAID', 'ORDER_PAID'],
      [pending.id, 'SHIPPED', 'ORDER_SHIPPED'],
      [pending.id, 'DELIVERED', 'ORDER_DELIVERED'],
      [pending.id, 'REFUNDED', 'ORDER_REFUNDED'],
      [(await createOrder({})).id, 'CANCELLED', 'ORDER_CANCELLED'],
    ] as const) {
      recording.events.length = 0;
      const order = await changeOrderStatus(orderId, status);
      expect(recording.events).toEqual([{ storeId, name, payload: { order } }]);
      expect(order.status).toBe(status);
    }
    recording.events.length = 0;
    await expect(changeOrderStatus(pending.id, 'SHIPPED')).rejects.toMatchObject({ status: 422 });
    expect(recording.events).toEqual([]);
  });
});
