import createClient from 'openapi-fetch';
import { expect } from 'vitest';
import type { components, paths } from '../../generated/openapi.ts';
import { envelopeOf, UNKNOWN } from './catalog.ts';
import { asContractExample } from './contract-example.ts';
import { type AdminApi, type Api, describeEngines, type Tenant, test, withoutDefaults } from './fixture.ts';

type ProductCreate = components['schemas']['ProductCreate'];
type ApiKeyCreate = components['schemas']['ApiKeyCreate'];

const MESSAGE = {
  AUTH_API_KEY_REQUIRED: 'Chave de API ausente, inválida, expirada ou revogada.',
  AUTH_SCOPE_DENIED: 'A chave de API não tem o escopo necessário para esta operação.',
  AUTH_STORE_ACCESS_DENIED: 'A chave de API não tem acesso a esta loja.',
  AUTH_ADMIN_TOKEN_REQUIRED: 'Token de administração ausente ou inválido.',
  VALIDATION_ERROR: 'Os dados enviados são inválidos.',
} as const;
type Code = keyof typeof MESSAGE;

/** The whole section 7 envelope: status, code, meta.status, the Portuguese message, nothing else. */
const envelope = envelopeOf(MESSAGE);
const keyRequired = envelope(401, 'AUTH_API_KEY_REQUIRED');
const storeIdInvalid = envelope(400, 'VALIDATION_ERROR', [
  { location: 'header', path: 'x-store-id', reason: expect.any(String) },
]);

const WELL_FORMED_UNKNOWN = `sf_live_${'A'.repeat(43)}`;
const product = withoutDefaults<ProductCreate>({ name: 'Caneca Esmaltada', type: 'DIGITAL', price: 10 });

describeEngines('authentication', () => {
  /** listProducts with exactly these headers. */
  const listProducts = (clientWith: (headers: Record<string, string>) => Api, headers: Record<string, string>) =>
    clientWith(headers).GET('/api/v1/products');
  /** createProduct with exactly these headers, and the raw text given as its body (a valid product unless given). */
  const createProduct = (
    clientWith: (headers: Record<string, string>) => Api,
    headers: Record<string, string>,
    rawBody?: string,
  ) =>
    clientWith(headers).POST('/api/v1/products', {
      body: product,
      ...(rawBody === undefined ? {} : { bodySerializer: () => rawBody }),
    });
  /** A new key on the tenant's store, issued by the admin API with extra fields (expiresAt, scopes, ...). */
  const issueKey = async (admin: AdminApi, tenant: Tenant, extra: Partial<ApiKeyCreate> = {}) => {
    const created = await admin.POST('/admin/api-keys', { body: { storeIds: [tenant.storeId], ...extra } });
    expect(created.response.status).toBe(201);
    const key = created.data?.data.apiKey;
    if (!key) throw new Error('createApiKey failed');
    return key;
  };
  const bearer = (key: string, storeId: string) => ({ authorization: `Bearer ${key}`, 'x-store-id': storeId });

  test('accepts a valid Bearer key on an authorized store', async ({ clientWith, tenant }) => {
    const { response } = await listProducts(clientWith, tenant.headers);
    expect(response.status).toBe(200);
  });

  test('reads the scheme in any letter case and the key after one space or more (RFC 9110)', async ({
    clientWith,
    tenant,
  }) => {
    for (const authorization of [`bearer ${tenant.apiKey}`, `BEARER  ${tenant.apiKey}`]) {
      const { response } = await listProducts(clientWith, { 'x-store-id': tenant.storeId, authorization });
      expect(response.status, authorization.slice(0, 8)).toBe(200);
    }
  });

  test.for([
    ['no Authorization header', {}],
    ['Bearer with a malformed key', { authorization: 'Bearer sf_live_short' }],
    ['Bearer with a key of another prefix', { authorization: `Bearer sf_test_${'A'.repeat(43)}` }],
    ['a session token (JWT)', { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl' }],
    ['Basic credentials', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['a bare key without the Bearer scheme', { authorization: WELL_FORMED_UNKNOWN }],
    ['an unknown well-formed key', { authorization: `Bearer ${WELL_FORMED_UNKNOWN}` }],
  ] as const)('answers 401 AUTH_API_KEY_REQUIRED for %s', async ([, given], { clientWith, tenant }) => {
    const { response, error } = await listProducts(clientWith, { 'x-store-id': tenant.storeId, ...given });
    expect(response.status).toBe(401);
    expect(error).toEqual(keyRequired);
  });

  test('does not accept a valid v1 key sent only in the x-api-key header', async ({ clientWith, tenant }) => {
    const { response, error } = await listProducts(clientWith, {
      'x-api-key': tenant.apiKey,
      'x-store-id': tenant.storeId,
    });
    expect(response.status).toBe(401);
    expect(error).toEqual(keyRequired);
  });

  test('refuses a key with 401 from the moment it expires', async ({ admin, clientWith, tenant }) => {
    const expiresAt = Date.now() + 1000;
    const expiring = await issueKey(admin, tenant, { expiresAt: new Date(expiresAt).toISOString() });
    expect((await listProducts(clientWith, bearer(expiring.key, tenant.storeId))).response.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, expiresAt - Date.now() + 20));
    const { response, error } = await listProducts(clientWith, bearer(expiring.key, tenant.storeId));
    expect({ status: response.status, error }).toEqual({ status: 401, error: keyRequired });
  });

  test('compares expiry as an instant, whatever the time zone offset it was written with', async ({
    admin,
    clientWith,
    tenant,
  }) => {
    // One hour ahead, written in UTC-10:00: its local text sorts before "now" in UTC.
    const instant = new Date(Date.now() + 60 * 60 * 1000);
    const honolulu = new Date(instant.getTime() - 10 * 60 * 60 * 1000).toISOString().replace('Z', '-10:00');
    const future = await issueKey(admin, tenant, { expiresAt: honolulu });
    expect(Date.parse(future.expiresAt ?? '')).toBe(instant.getTime());
    expect((await listProducts(clientWith, bearer(future.key, tenant.storeId))).response.status).toBe(200);
  });

  test.for([
    ['an instant already past', '2020-01-01T00:00:00Z'],
    ['an hour ago, written in UTC+09:00 (its text sorts after now)', 'tokyo'],
  ] as const)(
    'createApiKey refuses an expiresAt of %s as the contract example RuleApiKeyExpiresInFuture',
    async ([, given], { admin, tenant }) => {
      const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
      const tokyo = new Date(hourAgo.getTime() + 9 * 60 * 60 * 1000).toISOString().replace('Z', '+09:00');
      const created = await admin.POST('/admin/api-keys', {
        body: { storeIds: [tenant.storeId], expiresAt: given === 'tokyo' ? tokyo : given },
      });
      expect({ status: created.response.status, error: created.error }).toEqual({
        status: 400,
        error: asContractExample('RuleApiKeyExpiresInFuture'),
      });
    },
  );

  test.for([
    ['not a uuid', { 'x-store-id': 'loja-1' }],
    ['a uuid with a trailing character', { 'x-store-id': '00000000-0000-4000-8000-0000000000001' }],
    ['missing', {}],
  ] as const)(
    'answers 400 VALIDATION_ERROR naming header x-store-id when it is %s',
    async ([, given], { clientWith, tenant }) => {
      const { response, error } = await listProducts(clientWith, {
        authorization: `Bearer ${tenant.apiKey}`,
        ...given,
      });
      expect(response.status).toBe(400);
      expect(error).toEqual(storeIdInvalid);
    },
  );

  test('accepts the store id in upper case (a uuid is case-insensitive)', async ({ clientWith, tenant }) => {
    const { response } = await listProducts(clientWith, bearer(tenant.apiKey, tenant.storeId.toUpperCase()));
    expect(response.status).toBe(200);
  });

  test('answers 403 AUTH_STORE_ACCESS_DENIED for a store the key is not authorized for', async ({
    clientWith,
    tenant,
    otherTenant,
  }) => {
    for (const storeId of [otherTenant.storeId, UNKNOWN]) {
      const { response, error } = await listProducts(clientWith, bearer(tenant.apiKey, storeId));
      expect(response.status).toBe(403);
      expect(error).toEqual(envelope(403, 'AUTH_STORE_ACCESS_DENIED'));
    }
  });

  test('answers 403 AUTH_SCOPE_DENIED for a key lacking the scope, and creates nothing', async ({
    clientWith,
    newTenant,
  }) => {
    const readOnly = await newTenant(['products:read']);
    expect((await listProducts(clientWith, readOnly.headers)).response.status).toBe(200);
    const { response, error } = await createProduct(clientWith, readOnly.headers);
    expect(response.status).toBe(403);
    expect(error).toEqual(envelope(403, 'AUTH_SCOPE_DENIED'));
    const list = await listProducts(clientWith, readOnly.headers);
    expect(list.data?.data.pagination.total).toBe(0);
  });

  type Tenants = { tenant: Tenant; other: Tenant; readOnly: Tenant };
  type Want = { status: number; code: Code };
  test.for<
    [string, { given: (tenants: Tenants) => { headers: Record<string, string>; rawBody?: string }; want: Want }]
  >([
    [
      'missing key + bad store id → 401',
      { given: () => ({ headers: { 'x-store-id': 'nope' } }), want: { status: 401, code: 'AUTH_API_KEY_REQUIRED' } },
    ],
    [
      'missing key + foreign store + invalid body → 401',
      {
        given: ({ other }) => ({ headers: { 'x-store-id': other.storeId }, rawBody: '{"name":1}' }),
        want: { status: 401, code: 'AUTH_API_KEY_REQUIRED' },
      },
    ],
    [
      'missing key + malformed JSON → 401',
      {
        given: ({ tenant }) => ({ headers: { 'x-store-id': tenant.storeId }, rawBody: '{"name": ' }),
        want: { status: 401, code: 'AUTH_API_KEY_REQUIRED' },
      },
    ],
    [
      'bad store id + missing scope → 400',
      {
        given: ({ readOnly }) => ({ headers: { ...readOnly.headers, 'x-store-id': 'nope' } }),
        want: { status: 400, code: 'VALIDATION_ERROR' },
      },
    ],
    [
      'foreign store + missing scope → 403 STORE',
      {
        given: ({ readOnly, other }) => ({ headers: { ...readOnly.headers, 'x-store-id': other.storeId } }),
        want: { status: 403, code: 'AUTH_STORE_ACCESS_DENIED' },
      },
    ],
    [
      'foreign store + invalid body → 403 STORE',
      {
        given: ({ tenant, other }) => ({
          headers: { ...tenant.headers, 'x-store-id': other.storeId },
          rawBody: '{"name":1}',
        }),
        want: { status: 403, code: 'AUTH_STORE_ACCESS_DENIED' },
      },
    ],
    [
      'missing scope + invalid body → 403 SCOPE',
      {
        given: ({ readOnly }) => ({ headers: readOnly.headers, rawBody: '{"name":1}' }),
        want: { status: 403, code: 'AUTH_SCOPE_DENIED' },
      },
    ],
    [
      'missing scope + malformed JSON → 403 SCOPE',
      {
        given: ({ readOnly }) => ({ headers: readOnly.headers, rawBody: '{"name": ' }),
        want: { status: 403, code: 'AUTH_SCOPE_DENIED' },
      },
    ],
    [
      'everything right but the body → 400',
      {
        given: ({ tenant }) => ({ headers: tenant.headers, rawBody: '{"name":1}' }),
        want: { status: 400, code: 'VALIDATION_ERROR' },
      },
    ],
  ])(
    'applies the documented order of checks: %s',
    async ([, { given, want }], { clientWith, tenant, otherTenant, newTenant }) => {
      const { headers, rawBody } = given({ tenant, other: otherTenant, readOnly: await newTenant(['products:read']) });
      const { response, error } = await createProduct(clientWith, headers, rawBody);
      expect(response.status).toBe(want.status);
      expect(error).toMatchObject({
        success: false,
        error: { code: want.code, message: MESSAGE[want.code] },
        meta: { status: want.status },
      });
    },
  );

  test.for<[string, Record<string, string> | 'tenant key']>([
    ['no token', {}],
    ['a wrong token', { authorization: 'Bearer not-the-admin-token-at-all' }],
    ['the token without Bearer', { authorization: 'test-admin-token-0123456789' }],
    ['a v1 API key', 'tenant key'],
  ])(
    'answers 401 AUTH_ADMIN_TOKEN_REQUIRED on admin routes with %s',
    async ([, given], { server, clientWith, tenant }) => {
      const headers = given === 'tenant key' ? { authorization: `Bearer ${tenant.apiKey}` } : given;
      const as = createClient<paths>({ baseUrl: server.baseUrl, headers });
      const store = await as.POST('/admin/stores', {
        body: withoutDefaults<components['schemas']['StoreCreate']>({ name: 'Loja Intrusa' }),
      });
      expect(store.response.status).toBe(401);
      expect(store.error).toEqual(envelope(401, 'AUTH_ADMIN_TOKEN_REQUIRED'));
      const key = await as.POST('/admin/api-keys', { body: { storeIds: [tenant.storeId] } });
      expect(key.response.status).toBe(401);
      expect(key.error).toEqual(envelope(401, 'AUTH_ADMIN_TOKEN_REQUIRED'));
      const revoke = await as.DELETE('/admin/api-keys/{apiKeyId}', { params: { path: { apiKeyId: tenant.apiKeyId } } });
      expect(revoke.response.status).toBe(401);
      expect((await listProducts(clientWith, tenant.headers)).response.status).toBe(200);
    },
  );

  test('says on every 401 how to authenticate (WWW-Authenticate: the challenge of the operation’s scheme)', async ({
    server,
    clientWith,
    tenant,
  }) => {
    const anonymous = createClient<paths>({ baseUrl: server.baseUrl });
    const v1 = await listProducts(clientWith, { authorization: `Bearer ${WELL_FORMED_UNKNOWN}` });
    const admin = await anonymous.POST('/admin/stores', {
      body: withoutDefaults<components['schemas']['StoreCreate']>({ name: 'Loja Intrusa' }),
    });
    const checkout = await anonymous.GET('/checkout/payment-links/{paymentLinkId}', {
      params: { path: { paymentLinkId: UNKNOWN } },
    });
    expect(
      [v1, admin, checkout].map(({ response }) => [response.status, response.headers.get('www-authenticate')]),
    ).toEqual([
      [401, 'Bearer realm="storefront"'],
      [401, 'Bearer realm="storefront-admin"'],
      [401, 'ApiKey realm="storefront-checkout", header="x-api-key"'],
    ]);
    // Only a 401 carries it.
    const missingStore = await listProducts(clientWith, { authorization: `Bearer ${tenant.apiKey}` });
    expect([missingStore.response.status, missingStore.response.headers.get('www-authenticate')]).toEqual([400, null]);
  });
});
