import { assert, type BehaviourTest, createProduct, data, productBody, search } from './behaviour-kit.ts';
import type { Json, JsonObject } from './contract.ts';
import { expectResponse } from './expect.ts';

export const accessBehaviour: BehaviourTest[] = [
  {
    operationId: 'getProductById',
    rule: 'store isolation: another store’s product answers 404 and is not listed',
    needs: ['state', 'admin'],
    async run(s) {
      const other = s.otherStoreId as string;
      const body = await productBody(s);
      const product = data((await createProduct(s, body)).response.json).product as JsonObject;
      const key = await s.createKey([s.storeId, other]);
      const headers = { authorization: `Bearer ${key}`, 'x-store-id': other };
      const op = s.operation('getProductById');
      await expectResponse(
        s,
        op,
        'another store’s id → 404',
        { headers, pathParams: { productId: String(product.id) } },
        { status: 404, codes: ['RESOURCE_NOT_FOUND'] },
      );
      const { items, exchange } = await search(s, 'listProducts', String(body.name), headers);
      assert(items.length === 0, 'listProducts — another store lists this store’s product', exchange);
      const update = s.operation('updateProduct');
      await expectResponse(
        s,
        update,
        'another store’s id → 404',
        { headers, pathParams: { productId: String(product.id) }, body: { name: 'Conformance intruder' } },
        { status: 404 },
      );
    },
  },
  {
    operationId: 'createProduct',
    rule: 'scope denial: a products:read key lists but cannot create (403 AUTH_SCOPE_DENIED); a revoked key → 401',
    needs: ['state', 'admin'],
    async run(s) {
      const data0 = await s.adminCall(
        'createApiKey',
        {},
        { name: 'conformance read-only', storeIds: [s.storeId], scopes: ['products:read'] },
      );
      const apiKey = data0.apiKey as JsonObject;
      const headers = { authorization: `Bearer ${String(apiKey.key)}`, 'x-store-id': s.storeId };
      const list = s.operation('listProducts');
      await expectResponse(s, list, 'read scope lists', { headers }, { status: 200 });
      const create = s.operation('createProduct');
      await expectResponse(
        s,
        create,
        'no write scope → 403',
        { headers, body: (await productBody(s)) as Json },
        { status: 403, codes: ['AUTH_SCOPE_DENIED'] },
      );
      const revoke = s.operation('revokeApiKey');
      await expectResponse(
        s,
        revoke,
        'revoke',
        { headers: { authorization: `Bearer ${s.options.adminToken}` }, pathParams: { apiKeyId: String(apiKey.id) } },
        { status: 200 },
      );
      await expectResponse(
        s,
        list,
        'revoked key → 401',
        { headers },
        { status: 401, codes: ['AUTH_API_KEY_REQUIRED'] },
      );
    },
  },
];
