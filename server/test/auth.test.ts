import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminHeaders, call, createTenant, engines, startServer, type Tenant, type TestServer } from './harness.ts';

const MESSAGE = {
  AUTH_API_KEY_REQUIRED: 'Chave de API ausente, inválida, expirada ou revogada.',
  AUTH_SCOPE_DENIED: 'A chave de API não tem o escopo necessário para esta operação.',
  AUTH_STORE_ACCESS_DENIED: 'A chave de API não tem acesso a esta loja.',
  AUTH_ADMIN_TOKEN_REQUIRED: 'Token de administração ausente ou inválido.',
  VALIDATION_ERROR: 'Os dados enviados são inválidos.',
} as const;
type Code = keyof typeof MESSAGE;

/** The whole section 7 envelope: status, code, meta.status, the Portuguese message, nothing else. */
const envelope = (status: number, code: Code, details?: unknown[]) => ({
  success: false,
  error: { message: MESSAGE[code], code, ...(details ? { details } : {}) },
  meta: { timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/), status },
});
const keyRequired = envelope(401, 'AUTH_API_KEY_REQUIRED');
const storeIdInvalid = envelope(400, 'VALIDATION_ERROR', [
  { location: 'header', path: 'x-store-id', reason: expect.any(String) },
]);

const WELL_FORMED_UNKNOWN = `sf_live_${'A'.repeat(43)}`;
const product = { name: 'Caneca Esmaltada', type: 'DIGITAL', price: 10 };

describe.each(engines)('authentication on %s', (engine) => {
  let server: TestServer;
  let tenant: Tenant;
  let other: Tenant;
  let readOnly: Tenant;
  const admin = (method: string, path: string, body?: unknown) =>
    call(server.baseUrl, method, path, { headers: adminHeaders(server), ...(body !== undefined ? { body } : {}) });
  const listProducts = (headers: Record<string, string>) =>
    call(server.baseUrl, 'GET', '/api/v1/products', { headers });
  /** A new key on the tenant's store, issued by the admin API with extra fields (expiresAt, scopes, ...). */
  const issueKey = async (extra: Record<string, unknown> = {}) => {
    const created = await admin('POST', '/admin/api-keys', { storeIds: [tenant.storeId], ...extra });
    expect(created.status).toBe(201);
    return created.body.data.apiKey as { id: string; key: string; expiresAt: string | null };
  };

  beforeAll(async () => {
    server = await startServer({ engine });
    tenant = await createTenant(server);
    other = await createTenant(server);
    readOnly = await createTenant(server, ['products:read']);
  });
  afterAll(() => server.close());

  it('accepts a valid Bearer key on an authorized store', async () => {
    const response = await listProducts(tenant.headers);
    expect(response.status).toBe(200);
  });

  it.each([
    ['no Authorization header', {}],
    ['Bearer with a malformed key', { authorization: 'Bearer sf_live_short' }],
    ['Bearer with a key of another prefix', { authorization: `Bearer sf_test_${'A'.repeat(43)}` }],
    ['a session token (JWT)', { authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl' }],
    ['Basic credentials', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['a bare key without the Bearer scheme', { authorization: WELL_FORMED_UNKNOWN }],
    ['an unknown well-formed key', { authorization: `Bearer ${WELL_FORMED_UNKNOWN}` }],
  ])('answers 401 AUTH_API_KEY_REQUIRED for %s', async (_name, given: Record<string, string>) => {
    const response = await listProducts({ 'x-store-id': tenant.storeId, ...given });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(keyRequired);
  });

  it('does not accept a valid v1 key sent only in the x-api-key header', async () => {
    const response = await listProducts({ 'x-api-key': tenant.apiKey, 'x-store-id': tenant.storeId });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(keyRequired);
  });

  it('refuses an expired key with 401', async () => {
    const expired = await issueKey({ expiresAt: '2020-01-01T00:00:00Z' });
    const response = await listProducts({ authorization: `Bearer ${expired.key}`, 'x-store-id': tenant.storeId });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(keyRequired);
  });

  it('compares expiry as an instant, whatever the time zone offset it was written with', async () => {
    // One hour ago, written in UTC+09:00: its local text sorts after "now" in UTC.
    const instant = new Date(Date.now() - 60 * 60 * 1000);
    const tokyo = new Date(instant.getTime() + 9 * 60 * 60 * 1000).toISOString().replace('Z', '+09:00');
    const expired = await issueKey({ expiresAt: tokyo });
    expect(Date.parse(expired.expiresAt ?? '')).toBe(instant.getTime());
    const response = await listProducts({ authorization: `Bearer ${expired.key}`, 'x-store-id': tenant.storeId });
    expect(response.status).toBe(401);
    expect(response.body).toEqual(keyRequired);

    const future = await issueKey({ expiresAt: new Date(Date.now() + 60 * 60 * 1000).toISOString() });
    const valid = await listProducts({ authorization: `Bearer ${future.key}`, 'x-store-id': tenant.storeId });
    expect(valid.status).toBe(200);
  });

  it('refuses a revoked key from the next request on; revoking twice is 404', async () => {
    const key = await issueKey();
    const headers = { authorization: `Bearer ${key.key}`, 'x-store-id': tenant.storeId };
    expect((await listProducts(headers)).status).toBe(200);
    const revoked = await admin('DELETE', `/admin/api-keys/${key.id}`);
    expect(revoked.status).toBe(204);
    expect(revoked.body).toBeUndefined();
    const response = await listProducts(headers);
    expect(response.status).toBe(401);
    expect(response.body).toEqual(keyRequired);
    const again = await admin('DELETE', `/admin/api-keys/${key.id}`);
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('RESOURCE_NOT_FOUND');
  });

  it.each([
    ['not a uuid', { 'x-store-id': 'loja-1' }],
    ['a uuid with a trailing character', { 'x-store-id': '00000000-0000-4000-8000-0000000000001' }],
    ['missing', {}],
  ])('answers 400 VALIDATION_ERROR naming header x-store-id when it is %s', async (_name, given) => {
    const response = await listProducts({ authorization: tenant.headers.authorization as string, ...given });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(storeIdInvalid);
  });

  it('accepts the store id in upper case (a uuid is case-insensitive)', async () => {
    const response = await listProducts({ ...tenant.headers, 'x-store-id': tenant.storeId.toUpperCase() });
    expect(response.status).toBe(200);
  });

  it('answers 403 AUTH_STORE_ACCESS_DENIED for a store the key is not authorized for', async () => {
    const foreign = await listProducts({ ...tenant.headers, 'x-store-id': other.storeId });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual(envelope(403, 'AUTH_STORE_ACCESS_DENIED'));
    const nowhere = await listProducts({ ...tenant.headers, 'x-store-id': '00000000-0000-4000-8000-000000000000' });
    expect(nowhere.status).toBe(403);
    expect(nowhere.body).toEqual(envelope(403, 'AUTH_STORE_ACCESS_DENIED'));
  });

  it('answers 403 AUTH_SCOPE_DENIED for a key lacking the scope, and creates nothing', async () => {
    expect((await listProducts(readOnly.headers)).status).toBe(200);
    const response = await call(server.baseUrl, 'POST', '/api/v1/products', {
      headers: readOnly.headers,
      body: product,
    });
    expect(response.status).toBe(403);
    expect(response.body).toEqual(envelope(403, 'AUTH_SCOPE_DENIED'));
    const list = await listProducts(readOnly.headers);
    expect(list.body.data.pagination.total).toBe(0);
  });

  describe('applies the documented order of checks', () => {
    type Want = { status: number; code: Code };
    const cases: [string, { given: () => { headers: Record<string, string>; rawBody?: string }; want: Want }][] = [
      [
        'missing key + bad store id → 401',
        { given: () => ({ headers: { 'x-store-id': 'nope' } }), want: { status: 401, code: 'AUTH_API_KEY_REQUIRED' } },
      ],
      [
        'missing key + foreign store + invalid body → 401',
        {
          given: () => ({ headers: { 'x-store-id': other.storeId }, rawBody: '{"name":1}' }),
          want: { status: 401, code: 'AUTH_API_KEY_REQUIRED' },
        },
      ],
      [
        'missing key + malformed JSON → 401',
        {
          given: () => ({ headers: { 'x-store-id': tenant.storeId }, rawBody: '{"name": ' }),
          want: { status: 401, code: 'AUTH_API_KEY_REQUIRED' },
        },
      ],
      [
        'bad store id + missing scope → 400',
        {
          given: () => ({ headers: { ...readOnly.headers, 'x-store-id': 'nope' } }),
          want: { status: 400, code: 'VALIDATION_ERROR' },
        },
      ],
      [
        'foreign store + missing scope → 403 STORE',
        {
          given: () => ({ headers: { ...readOnly.headers, 'x-store-id': other.storeId } }),
          want: { status: 403, code: 'AUTH_STORE_ACCESS_DENIED' },
        },
      ],
      [
        'foreign store + invalid body → 403 STORE',
        {
          given: () => ({ headers: { ...tenant.headers, 'x-store-id': other.storeId }, rawBody: '{"name":1}' }),
          want: { status: 403, code: 'AUTH_STORE_ACCESS_DENIED' },
        },
      ],
      [
        'missing scope + invalid body → 403 SCOPE',
        {
          given: () => ({ headers: readOnly.headers, rawBody: '{"name":1}' }),
          want: { status: 403, code: 'AUTH_SCOPE_DENIED' },
        },
      ],
      [
        'missing scope + malformed JSON → 403 SCOPE',
        {
          given: () => ({ headers: readOnly.headers, rawBody: '{"name": ' }),
          want: { status: 403, code: 'AUTH_SCOPE_DENIED' },
        },
      ],
      [
        'everything right but the body → 400',
        {
          given: () => ({ headers: tenant.headers, rawBody: '{"name":1}' }),
          want: { status: 400, code: 'VALIDATION_ERROR' },
        },
      ],
    ];
    it.each(cases)('%s', async (_name, { given, want }) => {
      const { headers, rawBody } = given();
      const response = await call(server.baseUrl, 'POST', '/api/v1/products', {
        headers: { ...headers, 'content-type': 'application/json' },
        rawBody: rawBody ?? JSON.stringify(product),
      });
      expect(response.status).toBe(want.status);
      expect(response.body).toMatchObject({
        success: false,
        error: { code: want.code, message: MESSAGE[want.code] },
        meta: { status: want.status },
      });
    });
  });

  it.each<[string, Record<string, string> | 'tenant key']>([
    ['no token', {}],
    ['a wrong token', { authorization: 'Bearer not-the-admin-token-at-all' }],
    ['the token without Bearer', { authorization: 'test-admin-token-0123456789' }],
    ['a v1 API key', 'tenant key'],
  ])('answers 401 AUTH_ADMIN_TOKEN_REQUIRED on admin routes with %s', async (_name, given) => {
    const headers = given === 'tenant key' ? { authorization: `Bearer ${tenant.apiKey}` } : given;
    const store = await call(server.baseUrl, 'POST', '/admin/stores', { headers, body: { name: 'Loja Intrusa' } });
    expect(store.status).toBe(401);
    expect(store.body).toEqual(envelope(401, 'AUTH_ADMIN_TOKEN_REQUIRED'));
    const key = await call(server.baseUrl, 'POST', '/admin/api-keys', {
      headers,
      body: { storeIds: [tenant.storeId] },
    });
    expect(key.status).toBe(401);
    expect(key.body).toEqual(envelope(401, 'AUTH_ADMIN_TOKEN_REQUIRED'));
    const revoke = await call(server.baseUrl, 'DELETE', `/admin/api-keys/${tenant.apiKeyId}`, { headers });
    expect(revoke.status).toBe(401);
    expect((await listProducts(tenant.headers)).status).toBe(200);
  });
});
