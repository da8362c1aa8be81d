import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import { envelopeOf, RECORD_ID, TIMESTAMP, UNKNOWN } from '../../../test/catalog.ts';
import { deletedAnswer, deletion } from '../../../test/deletion.ts';
import { clientOf, describeEngines, malformed, test } from '../../../test/fixture.ts';
import { openStore } from '../../db/database.ts';

describeEngines('credentials', () => {
  test('createApiKey shows a key once, in the documented form, and stores only its sha256 hash', async ({
    admin,
    server,
    tenant,
  }) => {
    const created = await admin.POST('/admin/api-keys', {
      body: { storeIds: [tenant.storeId], name: 'Integração ERP' },
    });
    expect(created.response.status).toBe(201);
    const apiKey = created.data?.data.apiKey;
    expect(apiKey).toEqual({
      id: expect.any(String),
      name: 'Integração ERP',
      storeIds: [tenant.storeId],
      scopes: expect.arrayContaining(['products:read', 'products:write', 'automations:read', 'automations:write']),
      expiresAt: null,
      createdAt: expect.any(String),
      key: expect.stringMatching(/^sf_live_[A-Za-z0-9_-]{43}$/),
    });
    const key = apiKey?.key ?? '';

    const store = openStore(server.location);
    try {
      const rows = await store.db
        .selectFrom('api_keys')
        .selectAll()
        .where('id', '=', apiKey?.id ?? UNKNOWN)
        .execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]?.key_hash).toBe(createHash('sha256').update(key).digest('hex'));
      const secretPart = key.slice('sf_live_'.length);
      for (const value of Object.values(rows[0] ?? {})) expect(String(value)).not.toContain(secretPart);
    } finally {
      await store.close();
    }

    // Nothing else answers the key: not the v1 calls it authenticates.
    const withKey = clientOf(server, {
      ...tenant,
      apiKey: key,
      headers: { authorization: `Bearer ${key}`, 'x-store-id': tenant.storeId },
    });
    const createdProduct = await withKey.POST('/api/v1/products', {
      body: malformed({ name: 'Caneca Esmaltada', type: 'DIGITAL', price: 10 }),
    });
    const list = await withKey.GET('/api/v1/products');
    expect(createdProduct.response.status).toBe(201);
    for (const body of [createdProduct.data, list.data]) expect(JSON.stringify(body)).not.toContain(key);
  });

  test('createApiKey rejects a key request naming an unknown scope (400) or an unknown store (422)', async ({
    admin,
    tenant,
  }) => {
    const scope = await admin.POST('/admin/api-keys', {
      body: malformed({ storeIds: [tenant.storeId], scopes: ['everything:write'] }),
    });
    expect(scope.response.status).toBe(400);
    expect(scope.error).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
    const store = await admin.POST('/admin/api-keys', { body: { storeIds: [UNKNOWN] } });
    expect(store.response.status).toBe(422);
    expect(store.error).toMatchObject({
      error: {
        code: 'REFERENCE_NOT_FOUND',
        details: [{ location: 'body', path: 'storeIds.0', reason: expect.any(String) }],
      },
    });
  });

  test('revokeApiKey: 200 with the deleted envelope, the key answers 401 from its next request on, and a second revoke is 404', async ({
    admin,
    api,
    tenant,
  }) => {
    expect((await api.GET('/api/v1/products')).response.status).toBe(200);
    const revoke = () =>
      admin.DELETE('/admin/api-keys/{apiKeyId}', { params: { path: { apiKeyId: tenant.apiKeyId } } });
    expect(await deletion(revoke())).toEqual(deletedAnswer(tenant.apiKeyId));
    const refused = await api.GET('/api/v1/products');
    expect(refused.response.status).toBe(401);
    expect(refused.error).toEqual(
      envelopeOf({ AUTH_API_KEY_REQUIRED: 'Chave de API ausente, inválida, expirada ou revogada.' })(
        401,
        'AUTH_API_KEY_REQUIRED',
      ),
    );
    const again = await revoke();
    expect(again.response.status).toBe(404);
    expect(again.error).toMatchObject({ error: { code: 'RESOURCE_NOT_FOUND' } });
  });

  test('createCheckoutKey shows a key once, in the documented form, for the store; an unknown store is 404', async ({
    admin,
    tenant,
  }) => {
    const created = await admin.POST('/admin/stores/{storeId}/checkout-keys', {
      params: { path: { storeId: tenant.storeId } },
    });
    expect(created.response.status).toBe(201);
    const checkoutKey = created.data?.data.checkoutKey;
    expect(created.data).toEqual({ success: true, data: { checkoutKey } });
    expect(checkoutKey).toEqual({
      id: expect.stringMatching(RECORD_ID),
      storeId: tenant.storeId,
      createdAt: expect.stringMatching(TIMESTAMP),
      key: expect.stringMatching(/^sf_checkout_[A-Za-z0-9_-]{43}$/),
    });
    const unknown = await admin.POST('/admin/stores/{storeId}/checkout-keys', {
      params: { path: { storeId: UNKNOWN } },
    });
    expect(unknown.response.status).toBe(404);
    expect(unknown.error).toMatchObject({ error: { code: 'RESOURCE_NOT_FOUND' } });
  });
});
