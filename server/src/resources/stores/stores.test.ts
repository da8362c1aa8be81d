import createClient from 'openapi-fetch';
import { expect } from 'vitest';
import type { paths } from '../../../../generated/openapi.ts';
import { RECORD_ID, TIMESTAMP } from '../../../test/catalog.ts';
import { describeEngines, malformed, test } from '../../../test/fixture.ts';
import { expectInvalid } from '../../../test/store-scoped.ts';

describeEngines('stores', () => {
  test('createStore answers the whole store (BRL unless a currency is given), and a key for it works at once', async ({
    admin,
    clientWith,
  }) => {
    const created = await admin.POST('/admin/stores', { body: malformed({ name: 'Loja Centro' }) });
    expect(created.response.status).toBe(201);
    const store = created.data?.data.store;
    expect(created.data).toEqual({ success: true, data: { store } });
    expect(store).toEqual({
      id: expect.stringMatching(RECORD_ID),
      name: 'Loja Centro',
      currency: 'BRL',
      createdAt: expect.stringMatching(TIMESTAMP),
    });
    const dollars = await admin.POST('/admin/stores', { body: { name: 'Loja Miami', currency: 'USD' } });
    expect(dollars.data?.data.store).toMatchObject({ name: 'Loja Miami', currency: 'USD' });

    const storeId = store?.id ?? '';
    const key = await admin.POST('/admin/api-keys', { body: { storeIds: [storeId] } });
    const products = await clientWith({
      authorization: `Bearer ${key.data?.data.apiKey.key}`,
      'x-store-id': storeId,
    }).GET('/api/v1/products');
    expect(products.response.status).toBe(200);
    expect(products.data?.data.products).toEqual([]);
  });

  test.for([
    ['an empty name', { name: '' }, 'name'],
    ['no name', { currency: 'BRL' }, 'name'],
    ['a currency not of three capitals', { name: 'Loja', currency: 'real' }, 'currency'],
    ['an undeclared field', { name: 'Loja', owner: 'Ana' }, 'owner'],
  ] as const)('createStore refuses %s: 400 naming the field', async ([, body, field], { admin }) => {
    expectInvalid(await admin.POST('/admin/stores', { body: malformed(body) }), field);
  });

  test('createStore with an API key instead of the admin token: 401 AUTH_ADMIN_TOKEN_REQUIRED', async ({
    server,
    tenant,
  }) => {
    const asTenant = createClient<paths>({
      baseUrl: server.baseUrl,
      headers: { authorization: `Bearer ${tenant.apiKey}` },
    });
    const refused = await asTenant.POST('/admin/stores', { body: { name: 'Loja Intrusa', currency: 'BRL' } });
    expect(refused.response.status).toBe(401);
    expect(refused.error).toMatchObject({ error: { code: 'AUTH_ADMIN_TOKEN_REQUIRED' } });
  });
});
