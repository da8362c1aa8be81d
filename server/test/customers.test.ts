import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customerHandlers } from '../src/handlers/customers.ts';
import { adminHeaders, call, createTenant, engines, startServer, type Tenant, type TestServer } from './harness.ts';
import { input, type RecordingDeps, recordingDeps } from './recording-deps.ts';

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

/** First calls of a route compile its schemas in the request validator: slow on a busy machine. */
const FIRST_USE_TIMEOUT = 20_000;

let serial = 0;
/** A CPF-shaped number (11 digits) not used before in this run. */
const cpf = () => {
  serial += 1;
  return String(20_000_000_000 + serial);
};

const maria = () => ({
  name: 'Maria Oliveira Santos',
  email: 'maria.santos@example.com.br',
  phone: '+5511987654321',
  documentType: 'CPF',
  documentNumber: cpf(),
});

describe.each(engines)('customers on %s', (engine) => {
  let server: TestServer;
  let tenant: Tenant;
  let other: Tenant;
  const v1 = (method: string, path: string, body?: unknown, who: Tenant = tenant) =>
    call(server.baseUrl, method, path, { headers: who.headers, ...(body !== undefined ? { body } : {}) });
  const createOrder = async (who: Tenant, body: object) => {
    const response = await call(server.baseUrl, 'POST', `/admin/stores/${who.storeId}/orders`, {
      headers: adminHeaders(server),
      body,
    });
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
    'creates a customer (201) with no orders yet and reads it back by id and in the list',
    async () => {
      const body = maria();
      const created = await v1('POST', '/api/v1/customers', body);
      expect(created.status).toBe(201);
      const customer = created.body.data.customer;
      expect(created.body).toEqual({
        success: true,
        data: {
          customer: {
            ...body,
            id: expect.any(String),
            storeId: tenant.storeId,
            ordersCount: 0,
            totalSpent: 0,
            createdAt: expect.any(String),
            updatedAt: customer.createdAt,
          },
        },
      });
      const read = await v1('GET', `/api/v1/customers/${customer.id}`);
      expect(read.status).toBe(200);
      expect(read.body).toEqual({ success: true, data: { customer } });
      const list = await v1('GET', `/api/v1/customers?documentNumber=${body.documentNumber}`);
      expect(list.body.data).toEqual({
        customers: [customer],
        pagination: { page: 1, limit: 20, total: 1, totalPages: 1 },
      });
      const company = await v1('POST', '/api/v1/customers', {
        name: 'Empresa Ltda',
        email: 'compras@empresa.com.br',
        documentType: 'CNPJ',
        documentNumber: '11222333000181',
      });
      expect(company.status).toBe(201);
      expect(company.body.data.customer).toMatchObject({ phone: null, documentType: 'CNPJ' });
    },
    FIRST_USE_TIMEOUT,
  );

  it.each([
    ['no name', { ...maria(), name: undefined }, 'name'],
    ['an empty name', { ...maria(), name: '' }, 'name'],
    ['an e-mail that is not one', { ...maria(), email: 'maria' }, 'email'],
    ['a phone with letters', { ...maria(), phone: '+55 11 9876' }, 'phone'],
    ['a document type other than CPF/CNPJ', { ...maria(), documentType: 'RG' }, 'documentType'],
    ['a document with punctuation', { ...maria(), documentNumber: '529.982.247-25' }, 'documentNumber'],
    ['a CPF with 14 digits', { ...maria(), documentNumber: '11222333000181' }, 'documentNumber'],
    ['a CNPJ with 11 digits', { ...maria(), documentType: 'CNPJ' }, 'documentNumber'],
    ['a computed field', { ...maria(), ordersCount: 3 }, 'ordersCount'],
    ['an unknown field', { ...maria(), birthday: '1990-01-01' }, 'birthday'],
  ])('rejects a customer with %s: 400 VALIDATION_ERROR naming the field', async (_name, body, field) => {
    const response = await v1('POST', '/api/v1/customers', body);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
  });

  it('answers 409 DUPLICATE_ENTRY for a document already used in the store, on create and on update', async () => {
    const first = (await v1('POST', '/api/v1/customers', maria())).body.data.customer;
    const clash = await v1('POST', '/api/v1/customers', { ...maria(), documentNumber: first.documentNumber });
    expect(clash.status).toBe(409);
    expect(clash.body).toEqual({
      success: false,
      error: {
        code: 'DUPLICATE_ENTRY',
        message: expect.any(String),
        details: [
          { location: 'body', path: 'documentNumber', reason: `documento já utilizado: ${first.documentNumber}` },
        ],
      },
      meta: { status: 409, timestamp: expect.any(String) },
    });
    const elsewhere = await v1(
      'POST',
      '/api/v1/customers',
      { ...maria(), documentNumber: first.documentNumber },
      other,
    );
    expect(elsewhere.status).toBe(201);
    const second = (await v1('POST', '/api/v1/customers', maria())).body.data.customer;
    const moved = await v1('PATCH', `/api/v1/customers/${second.id}`, { documentNumber: first.documentNumber });
    expect(moved.status).toBe(409);
    expect(moved.body.error.code).toBe('DUPLICATE_ENTRY');
    expect((await v1('GET', `/api/v1/customers/${second.id}`)).body.data.customer).toEqual(second);
    const fromOrder = await createOrder(tenant, { customer: { ...maria(), name: 'Comprador' } });
    const taken = await v1('POST', '/api/v1/customers', {
      ...maria(),
      documentNumber: fromOrder.customer.documentNumber,
    });
    expect(taken.status).toBe(409);
  });

  it('updates only the sent fields, keeps document and type consistent, and needs at least one field', async () => {
    const customer = (await v1('POST', '/api/v1/customers', maria())).body.data.customer;
    const updated = await v1('PATCH', `/api/v1/customers/${customer.id}`, { phone: '+5511912345678' });
    expect(updated.status).toBe(200);
    expect(updated.body.data.customer).toEqual({ ...customer, phone: '+5511912345678', updatedAt: expect.any(String) });
    expect((await v1('GET', `/api/v1/customers/${customer.id}`)).body.data.customer).toEqual(
      updated.body.data.customer,
    );
    const cleared = await v1('PATCH', `/api/v1/customers/${customer.id}`, { phone: null });
    expect(cleared.body.data.customer.phone).toBeNull();
    const mismatch = await v1('PATCH', `/api/v1/customers/${customer.id}`, { documentType: 'CNPJ' });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error.details).toEqual([
      {
        location: 'body',
        path: 'documentNumber',
        reason: 'um CNPJ tem 14 dígitos, sem pontuação',
        rule: 'customer-document-digits',
      },
    ]);
    const company = await v1('PATCH', `/api/v1/customers/${customer.id}`, {
      documentType: 'CNPJ',
      documentNumber: '33444555000166',
    });
    expect(company.status).toBe(200);
    expect(company.body.data.customer).toMatchObject({ documentType: 'CNPJ', documentNumber: '33444555000166' });
    const empty = await v1('PATCH', `/api/v1/customers/${customer.id}`, {});
    expect(empty.status).toBe(400);
    expect(empty.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('groups orders by document: one customer per document whose figures follow the store’s orders', async () => {
    const store = await createTenant(server);
    const buyer = maria();
    const first = await createOrder(store, { customer: buyer });
    const list = await v1('GET', '/api/v1/customers', undefined, store);
    expect(list.body.data.customers).toEqual([
      {
        ...buyer,
        id: expect.any(String),
        storeId: store.storeId,
        ordersCount: 1,
        totalSpent: first.total,
        createdAt: first.createdAt,
        updatedAt: first.createdAt,
      },
    ]);
    const customer = list.body.data.customers[0];
    const renamed = { ...buyer, name: 'Maria O. Santos', email: 'maria@example.com' };
    const second = await createOrder(store, {
      customer: renamed,
      discount: 5.55,
      items: [{ name: 'Caneca', quantity: 3, price: 10.1 }],
    });
    expect(second.total).toBe(44.65);
    const after = await v1('GET', `/api/v1/customers/${customer.id}`, undefined, store);
    expect(after.body.data.customer).toEqual({
      ...customer,
      name: 'Maria O. Santos',
      email: 'maria@example.com',
      ordersCount: 2,
      totalSpent: 144.45,
      updatedAt: second.createdAt,
    });
    await createOrder(store, { customer: { ...buyer, documentNumber: cpf() } });
    expect((await v1('GET', '/api/v1/customers', undefined, store)).body.data.pagination.total).toBe(2);
    const elsewhere = await createOrder(other, { customer: buyer });
    expect(elsewhere.customer.documentNumber).toBe(buyer.documentNumber);
    expect((await v1('GET', `/api/v1/customers/${customer.id}`, undefined, store)).body.data.customer.ordersCount).toBe(
      2,
    );
  });

  it('deletes a customer (204) and keeps its orders, which hold their own copy of the buyer', async () => {
    const store = await createTenant(server);
    const buyer = maria();
    const order = await createOrder(store, { customer: buyer });
    const customer = (await v1('GET', '/api/v1/customers', undefined, store)).body.data.customers[0];
    const deleted = await v1('DELETE', `/api/v1/customers/${customer.id}`, undefined, store);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeUndefined();
    expect((await v1('GET', `/api/v1/customers/${customer.id}`, undefined, store)).status).toBe(404);
    expect((await v1('DELETE', `/api/v1/customers/${customer.id}`, undefined, store)).status).toBe(404);
    const kept = await v1('GET', `/api/v1/orders/${order.id}`, undefined, store);
    expect(kept.body.data.order).toEqual(order);
    const recreated = await v1('POST', '/api/v1/customers', buyer, store);
    expect(recreated.status).toBe(201);
    expect(recreated.body.data.customer).toMatchObject({ ordersCount: 1, totalSpent: order.total });
  });

  it('lists newest first, searches name and e-mail case-insensitively, filters by document, pages', async () => {
    const store = await createTenant(server);
    const ana = (await v1('POST', '/api/v1/customers', { ...maria(), name: 'Ana Lima', email: 'ana@x.com' }, store))
      .body.data.customer;
    const bruno = (
      await v1('POST', '/api/v1/customers', { ...maria(), name: 'Bruno Souza', email: 'LIMA.b@x.com' }, store)
    ).body.data.customer;
    const carla = (
      await v1('POST', '/api/v1/customers', { ...maria(), name: 'Carla Dias', email: 'carla@x.com' }, store)
    ).body.data.customer;
    type Listed = { id: string; createdAt: string };
    const newestFirst = (customers: Listed[]) =>
      [...customers]
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id))
        .map((customer) => customer.id);
    const ids = async (query: string) =>
      (await v1('GET', `/api/v1/customers${query}`, undefined, store)).body.data.customers.map((c: Listed) => c.id);
    expect(await ids('')).toEqual(newestFirst([ana, bruno, carla]));
    expect(await ids('?search=lima')).toEqual(newestFirst([ana, bruno]));
    expect(await ids('?search=CARLA')).toEqual([carla.id]);
    expect(await ids(`?documentNumber=${bruno.documentNumber}`)).toEqual([bruno.id]);
    const paged = await v1('GET', '/api/v1/customers?limit=2&page=2', undefined, store);
    expect(paged.body.data.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 });
    expect(paged.body.data.customers.map((c: Listed) => c.id)).toEqual(newestFirst([ana, bruno, carla]).slice(2));
  });

  it.each([
    ['limit 0', '?limit=0', 'limit'],
    ['limit 101', '?limit=101', 'limit'],
    ['page 0', '?page=0', 'page'],
    ['a document filter with punctuation', '?documentNumber=529.982.247-25', 'documentNumber'],
    ['an empty search', '?search=', 'search'],
  ])('rejects a customer list with %s (400)', async (_name, query, field) => {
    const response = await v1('GET', `/api/v1/customers${query}`);
    expect(response.status).toBe(400);
    expect(response.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
  });

  it('answers 404 RESOURCE_NOT_FOUND for unknown and foreign customer ids', async () => {
    const customer = (await v1('POST', '/api/v1/customers', maria())).body.data.customer;
    for (const [id, who] of [
      [UNKNOWN_ID, tenant],
      [customer.id, other],
    ] as const) {
      for (const [method, body] of [
        ['GET', undefined],
        ['PATCH', { name: 'Outro Nome' }],
        ['DELETE', undefined],
      ] as const) {
        const response = await v1(method, `/api/v1/customers/${id}`, body, who);
        expect(response.status, `${method} ${id}`).toBe(404);
        expect(response.body.error.code).toBe('RESOURCE_NOT_FOUND');
      }
    }
    expect((await v1('GET', `/api/v1/customers/${customer.id}`)).body.data.customer).toEqual(customer);
  });

  it('denies keys without the customers scopes (403 AUTH_SCOPE_DENIED)', async () => {
    const productsOnly = await createTenant(server, ['products:read']);
    const readOnly = await createTenant(server, ['customers:read']);
    const customer = (await v1('POST', '/api/v1/customers', maria())).body.data.customer;
    for (const [method, url, body, who] of [
      ['GET', '/api/v1/customers', undefined, productsOnly],
      ['GET', `/api/v1/customers/${customer.id}`, undefined, productsOnly],
      ['POST', '/api/v1/customers', maria(), readOnly],
      ['PATCH', `/api/v1/customers/${customer.id}`, { name: 'Outro Nome' }, readOnly],
      ['DELETE', `/api/v1/customers/${customer.id}`, undefined, readOnly],
    ] as const) {
      const response = await v1(method, url, body, who);
      expect(response.status, `${method} ${url}`).toBe(403);
      expect(response.body.error.code).toBe('AUTH_SCOPE_DENIED');
    }
    expect((await v1('GET', '/api/v1/customers', undefined, readOnly)).status).toBe(200);
  });
});

describe.each(engines)('customer domain events on %s', (engine) => {
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

  it('emits CUSTOMER_CREATED with the customer read shape on create, and nothing on update or delete', async () => {
    const reply = await customerHandlers.createCustomer(
      input<'createCustomer'>({
        storeId,
        body: { name: 'Ana Lima', email: 'ana@example.com', documentType: 'CPF', documentNumber: cpf() },
      }),
      recording.deps,
    );
    const { customer } = reply.body.data;
    expect(recording.events).toEqual([{ storeId, name: 'CUSTOMER_CREATED', payload: { customer } }]);
    recording.events.length = 0;
    await customerHandlers.updateCustomer(
      input<'updateCustomer'>({ storeId, path: { customerId: customer.id }, body: { name: 'Ana L.' } }),
      recording.deps,
    );
    await customerHandlers.deleteCustomer(
      input<'deleteCustomer'>({ storeId, path: { customerId: customer.id } }),
      recording.deps,
    );
    expect(recording.events).toEqual([]);
  });
});
