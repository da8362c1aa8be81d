import { expect } from 'vitest';
import { UNKNOWN } from '../../../test/catalog.ts';
import { deletedAnswer, deletion } from '../../../test/deletion.ts';
import { type Api, describeEngines, malformed, test } from '../../../test/fixture.ts';
import { newOrder } from '../../../test/orders.ts';
import { describeDomainEvents, input } from '../../../test/recording-deps.ts';
import type { CustomerCreate } from '../../../test/records.ts';
import { expectInvalid, outOfBounds } from '../../../test/store-scoped.ts';
import { customerHandlers } from './handlers.ts';

let serial = 0;
/** A CPF-shaped number (11 digits) not used before in this run. */
const cpf = () => {
  serial += 1;
  return String(20_000_000_000 + serial);
};

const maria = () =>
  ({
    name: 'Maria Oliveira Santos',
    email: 'maria.santos@example.com.br',
    phone: '+5511987654321',
    documentType: 'CPF',
    documentNumber: cpf(),
  }) satisfies CustomerCreate;

const customerPath = (customerId: string | undefined) => ({ params: { path: { customerId: customerId ?? UNKNOWN } } });

describeEngines('customers', () => {
  test('createCustomer (201) has no orders yet; getCustomerById and listCustomers read it back', async ({
    api,
    tenant,
  }) => {
    const body = maria();
    const created = await api.POST('/api/v1/customers', { body });
    expect(created.response.status).toBe(201);
    const customer = created.data?.data.customer;
    expect(created.data).toEqual({
      success: true,
      data: {
        customer: {
          ...body,
          id: expect.any(String),
          storeId: tenant.storeId,
          ordersCount: 0,
          totalSpent: 0,
          createdAt: expect.any(String),
          updatedAt: customer?.createdAt,
        },
      },
    });
    const read = await api.GET('/api/v1/customers/{customerId}', customerPath(customer?.id));
    expect(read.response.status).toBe(200);
    expect(read.data).toEqual({ success: true, data: { customer } });
    const list = await api.GET('/api/v1/customers', { params: { query: { documentNumber: body.documentNumber } } });
    expect(list.data?.data).toEqual({
      customers: [customer],
      pagination: { page: 1, limit: 20, total: 1, totalPages: 1 },
    });
    const company = await api.POST('/api/v1/customers', {
      body: {
        name: 'Empresa Ltda',
        email: 'compras@empresa.com.br',
        documentType: 'CNPJ',
        documentNumber: '11222333000181',
      },
    });
    expect(company.response.status).toBe(201);
    expect(company.data?.data.customer).toMatchObject({ phone: null, documentType: 'CNPJ' });
  });

  test.for([
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
  ] as const)(
    'createCustomer rejects a customer with %s: 400 VALIDATION_ERROR naming the field',
    async ([, body, field], { api }) => {
      expectInvalid(await api.POST('/api/v1/customers', { body: malformed(body) }), field);
    },
  );

  test('createCustomer and updateCustomer answer 409 DUPLICATE_ENTRY for a document already used in the store', async ({
    api,
    otherStore,
    admin,
    tenant,
  }) => {
    const first = (await api.POST('/api/v1/customers', { body: maria() })).data?.data.customer;
    const documentNumber = first?.documentNumber ?? cpf();
    const clash = await api.POST('/api/v1/customers', { body: { ...maria(), documentNumber } });
    expect(clash.response.status).toBe(409);
    expect(clash.error).toEqual({
      success: false,
      error: {
        code: 'DUPLICATE_ENTRY',
        message: expect.any(String),
        details: [{ location: 'body', path: 'documentNumber', reason: `documento já utilizado: ${documentNumber}` }],
      },
      meta: { status: 409, timestamp: expect.any(String) },
    });
    const elsewhere = await otherStore.POST('/api/v1/customers', { body: { ...maria(), documentNumber } });
    expect(elsewhere.response.status).toBe(201);
    const second = (await api.POST('/api/v1/customers', { body: maria() })).data?.data.customer;
    const moved = await api.PATCH('/api/v1/customers/{customerId}', {
      ...customerPath(second?.id),
      body: { documentNumber },
    });
    expect(moved.response.status).toBe(409);
    expect(moved.error).toMatchObject({ error: { code: 'DUPLICATE_ENTRY' } });
    expect((await api.GET('/api/v1/customers/{customerId}', customerPath(second?.id))).data?.data.customer).toEqual(
      second,
    );
    const fromOrder = await newOrder(admin, tenant.storeId, { customer: { ...maria(), name: 'Comprador' } });
    const taken = await api.POST('/api/v1/customers', {
      body: { ...maria(), documentNumber: fromOrder.customer.documentNumber },
    });
    expect(taken.response.status).toBe(409);
  });

  test('updateCustomer changes only the sent fields, keeps document and type consistent, and needs one field', async ({
    api,
  }) => {
    const customer = (await api.POST('/api/v1/customers', { body: maria() })).data?.data.customer;
    const path = customerPath(customer?.id);
    const updated = await api.PATCH('/api/v1/customers/{customerId}', { ...path, body: { phone: '+5511912345678' } });
    expect(updated.response.status).toBe(200);
    expect(updated.data?.data.customer).toEqual({
      ...customer,
      phone: '+5511912345678',
      updatedAt: expect.any(String),
    });
    expect((await api.GET('/api/v1/customers/{customerId}', path)).data?.data.customer).toEqual(
      updated.data?.data.customer,
    );
    const cleared = await api.PATCH('/api/v1/customers/{customerId}', { ...path, body: { phone: null } });
    expect(cleared.data?.data.customer.phone).toBeNull();
    const mismatch = await api.PATCH('/api/v1/customers/{customerId}', { ...path, body: { documentType: 'CNPJ' } });
    expect(mismatch.response.status).toBe(400);
    expect(mismatch.error).toMatchObject({
      error: {
        details: [
          {
            location: 'body',
            path: 'documentNumber',
            reason: 'um CNPJ tem 14 dígitos, sem pontuação',
            rule: 'customer-document-digits',
          },
        ],
      },
    });
    const company = await api.PATCH('/api/v1/customers/{customerId}', {
      ...path,
      body: { documentType: 'CNPJ', documentNumber: '33444555000166' },
    });
    expect(company.response.status).toBe(200);
    expect(company.data?.data.customer).toMatchObject({ documentType: 'CNPJ', documentNumber: '33444555000166' });
    const empty = await api.PATCH('/api/v1/customers/{customerId}', { ...path, body: {} });
    expect(empty.response.status).toBe(400);
    expect(empty.error).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
  });

  test('createOrder groups orders by document: listCustomers and getCustomerById show one customer per document whose figures follow the store’s orders', async ({
    api,
    admin,
    tenant,
    otherTenant,
  }) => {
    const buyer = maria();
    const first = await newOrder(admin, tenant.storeId, { customer: buyer });
    const list = await api.GET('/api/v1/customers');
    expect(list.data?.data.customers).toEqual([
      {
        ...buyer,
        id: expect.any(String),
        storeId: tenant.storeId,
        ordersCount: 1,
        totalSpent: first.total,
        createdAt: first.createdAt,
        updatedAt: first.createdAt,
      },
    ]);
    const customer = list.data?.data.customers[0];
    const renamed = { ...buyer, name: 'Maria O. Santos', email: 'maria@example.com' };
    const second = await newOrder(admin, tenant.storeId, {
      customer: renamed,
      discount: 5.55,
      items: [{ name: 'Caneca', quantity: 3, price: 10.1 }],
    });
    expect(second.total).toBe(44.65);
    const after = await api.GET('/api/v1/customers/{customerId}', customerPath(customer?.id));
    expect(after.data?.data.customer).toEqual({
      ...customer,
      name: 'Maria O. Santos',
      email: 'maria@example.com',
      ordersCount: 2,
      totalSpent: 144.45,
      updatedAt: second.createdAt,
    });
    await newOrder(admin, tenant.storeId, { customer: { ...buyer, documentNumber: cpf() } });
    expect((await api.GET('/api/v1/customers')).data?.data.pagination.total).toBe(2);
    const elsewhere = await newOrder(admin, otherTenant.storeId, { customer: buyer });
    expect(elsewhere.customer.documentNumber).toBe(buyer.documentNumber);
    const again = await api.GET('/api/v1/customers/{customerId}', customerPath(customer?.id));
    expect(again.data?.data.customer.ordersCount).toBe(2);
  });

  test('deleteCustomer keeps the customer’s orders, which hold their own copy of the buyer', async ({
    api,
    admin,
    tenant,
  }) => {
    const buyer = maria();
    const order = await newOrder(admin, tenant.storeId, { customer: buyer });
    const customer = (await api.GET('/api/v1/customers')).data?.data.customers[0];
    const path = customerPath(customer?.id);
    expect(await deletion(api.DELETE('/api/v1/customers/{customerId}', path))).toEqual(
      deletedAnswer(path.params.path.customerId),
    );
    expect((await api.GET('/api/v1/customers/{customerId}', path)).response.status).toBe(404);
    expect((await api.DELETE('/api/v1/customers/{customerId}', path)).response.status).toBe(404);
    const kept = await api.GET('/api/v1/orders/{orderId}', { params: { path: { orderId: order.id } } });
    expect(kept.data?.data.order).toEqual(order);
    const recreated = await api.POST('/api/v1/customers', { body: buyer });
    expect(recreated.response.status).toBe(201);
    expect(recreated.data?.data.customer).toMatchObject({ ordersCount: 1, totalSpent: order.total });
  });

  test('listCustomers lists newest first, searches name and e-mail case-insensitively, filters by document, pages', async ({
    api,
  }) => {
    const create = async (change: Partial<CustomerCreate>) =>
      (await api.POST('/api/v1/customers', { body: { ...maria(), ...change } })).data?.data.customer;
    const ana = await create({ name: 'Ana Lima', email: 'ana@x.com' });
    const bruno = await create({ name: 'Bruno Souza', email: 'LIMA.b@x.com' });
    const carla = await create({ name: 'Carla Dias', email: 'carla@x.com' });
    type Listed = { id: string; createdAt: string } | undefined;
    const newestFirst = (customers: Listed[]) =>
      customers
        .flatMap((customer) => (customer ? [customer] : []))
        .sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id))
        .map((customer) => customer.id);
    const ids = async (query: { search?: string; documentNumber?: string }) =>
      (await api.GET('/api/v1/customers', { params: { query } })).data?.data.customers.map((c) => c.id);
    expect(await ids({})).toEqual(newestFirst([ana, bruno, carla]));
    expect(await ids({ search: 'lima' })).toEqual(newestFirst([ana, bruno]));
    expect(await ids({ search: 'CARLA' })).toEqual([carla?.id]);
    expect(await ids({ documentNumber: bruno?.documentNumber ?? '' })).toEqual([bruno?.id]);
    const paged = await api.GET('/api/v1/customers', { params: { query: { limit: 2, page: 2 } } });
    expect(paged.data?.data.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 });
    expect(paged.data?.data.customers.map((c) => c.id)).toEqual(newestFirst([ana, bruno, carla]).slice(2));
  });

  test.for([
    ...outOfBounds,
    [{ documentNumber: '529.982.247-25' }, 'documentNumber'],
    [{ search: '' }, 'search'],
  ] as const)('listCustomers rejects %o (400 VALIDATION_ERROR)', async ([query, field], { api }) => {
    expectInvalid(await api.GET('/api/v1/customers', { params: { query } }), field);
  });

  test('getCustomerById, updateCustomer and deleteCustomer answer 404 RESOURCE_NOT_FOUND for unknown and foreign ids', async ({
    api,
    otherStore,
  }) => {
    const customer = (await api.POST('/api/v1/customers', { body: maria() })).data?.data.customer;
    for (const [id, client] of [
      [UNKNOWN, api],
      [customer?.id, otherStore],
    ] as const) {
      const path = customerPath(id);
      for (const { response, error } of [
        await client.GET('/api/v1/customers/{customerId}', path),
        await client.PATCH('/api/v1/customers/{customerId}', { ...path, body: { name: 'Outro Nome' } }),
        await client.DELETE('/api/v1/customers/{customerId}', path),
      ]) {
        expect(response.status, `${response.url}`).toBe(404);
        expect(error).toMatchObject({ error: { code: 'RESOURCE_NOT_FOUND' } });
      }
    }
    expect((await api.GET('/api/v1/customers/{customerId}', customerPath(customer?.id))).data?.data.customer).toEqual(
      customer,
    );
  });

  test('listCustomers, getCustomerById, createCustomer, updateCustomer and deleteCustomer need the customers scopes (403 AUTH_SCOPE_DENIED)', async ({
    api,
    withScopes,
  }) => {
    const productsOnly: Api = await withScopes(['products:read']);
    const readOnly: Api = await withScopes(['customers:read']);
    const customer = (await api.POST('/api/v1/customers', { body: maria() })).data?.data.customer;
    const path = customerPath(customer?.id);
    for (const { response, error } of [
      await productsOnly.GET('/api/v1/customers'),
      await productsOnly.GET('/api/v1/customers/{customerId}', path),
      await readOnly.POST('/api/v1/customers', { body: maria() }),
      await readOnly.PATCH('/api/v1/customers/{customerId}', { ...path, body: { name: 'Outro Nome' } }),
      await readOnly.DELETE('/api/v1/customers/{customerId}', path),
    ]) {
      expect(response.status, `${response.url}`).toBe(403);
      expect(error).toMatchObject({ error: { code: 'AUTH_SCOPE_DENIED' } });
    }
    expect((await readOnly.GET('/api/v1/customers')).response.status).toBe(200);
  });
});

describeDomainEvents('customer domain events', (recording) => {
  const { storeId } = recording;

  test('createCustomer emits CUSTOMER_CREATED with the customer read shape; updateCustomer and deleteCustomer emit nothing', async () => {
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
