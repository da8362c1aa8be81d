import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handlers } from '../src/resources/operation.ts';
import { call, createTenant, engines, startServer, type Tenant, type TestServer } from './harness.ts';

const MESSAGE = {
  VALIDATION_ERROR: 'O corpo da requisição não é um JSON válido.',
  ROUTE_NOT_FOUND: 'Rota não encontrada.',
  METHOD_NOT_ALLOWED: 'Método não permitido para esta rota.',
  PAYLOAD_TOO_LARGE: 'O corpo da requisição é grande demais.',
  UNSUPPORTED_MEDIA_TYPE: 'O corpo da requisição deve ser JSON (Content-Type: application/json).',
  INTERNAL_ERROR: 'Erro interno do servidor.',
} as const;
type Code = keyof typeof MESSAGE;

const envelope = (status: number, code: Code, details?: unknown[]) => ({
  success: false,
  error: { message: MESSAGE[code], code, ...(details ? { details } : {}) },
  meta: { timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/), status },
});
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const product = { name: 'Caneca Esmaltada', type: 'DIGITAL', price: 10 };

/** A handler whose reply does not match the contract (the list without `pagination`). */
const brokenList = (async () => ({
  status: 200,
  body: { success: true, data: { products: [] } },
})) as unknown as Handlers['listProducts'];

describe.each(engines)('the error path on %s', (engine) => {
  let server: TestServer;
  let tenant: Tenant;
  const v1 = (method: string, path: string, options: Parameters<typeof call>[3] = {}) =>
    call(server.baseUrl, method, path, { ...options, headers: { ...tenant.headers, ...options.headers } });

  beforeAll(async () => {
    server = await startServer({ engine });
    tenant = await createTenant(server);
  });
  afterAll(() => server.close());

  it('answers malformed JSON with 400 VALIDATION_ERROR naming the body', async () => {
    const response = await v1('POST', '/api/v1/products', {
      headers: { 'content-type': 'application/json' },
      rawBody: '{"name": "Caneca",',
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual(
      envelope(400, 'VALIDATION_ERROR', [{ location: 'body', path: '', reason: expect.any(String) }]),
    );
  });

  it.each([
    ['an unknown v1 path, with a key', '/api/v1/produtos', true],
    ['an unknown v1 path, without a key', '/api/v1/produtos', false],
    ['a path outside the API', '/wp-admin/index.php', false],
    ['a known path with an extra segment', '/api/v1/products/00000000-0000-4000-8000-000000000000/x', true],
  ])('answers 404 ROUTE_NOT_FOUND for %s', async (_name, path, withKey) => {
    const response = withKey ? await v1('GET', path) : await call(server.baseUrl, 'GET', path);
    expect(response.status).toBe(404);
    expect(response.body).toEqual(envelope(404, 'ROUTE_NOT_FOUND'));
  });

  it.each([
    ['PUT', '/api/v1/products', 'GET, POST'],
    ['DELETE', '/api/v1/categories', 'GET, POST'],
    ['POST', '/api/v1/products/00000000-0000-4000-8000-000000000000', 'GET, PATCH, DELETE'],
  ])('answers %s %s with 405 METHOD_NOT_ALLOWED and an Allow header', async (method, path, allow) => {
    const response = await v1(method, path, { body: product });
    expect(response.status).toBe(405);
    expect(response.body).toEqual(envelope(405, 'METHOD_NOT_ALLOWED'));
    expect(
      response.headers
        .get('allow')
        ?.split(/,\s*/)
        .map((m) => m.toUpperCase())
        .sort(),
    ).toEqual(allow.split(', ').sort());
  });

  it('answers a body over 1 MB with 413 PAYLOAD_TOO_LARGE', async () => {
    const response = await v1('POST', '/api/v1/products', {
      body: { ...product, description: 'x'.repeat(1024 * 1024 + 10) },
    });
    expect(response.status).toBe(413);
    expect(response.body).toEqual(envelope(413, 'PAYLOAD_TOO_LARGE'));
  });

  it.each([
    ['text/plain', JSON.stringify(product)],
    ['application/x-www-form-urlencoded', 'name=Caneca&type=DIGITAL&price=10'],
    ['application/json; charset=latin1', JSON.stringify(product)],
  ])('answers a %s body with 415 UNSUPPORTED_MEDIA_TYPE', async (contentType, rawBody) => {
    const response = await v1('POST', '/api/v1/products', { headers: { 'content-type': contentType }, rawBody });
    expect(response.status).toBe(415);
    expect(response.body).toEqual(envelope(415, 'UNSUPPORTED_MEDIA_TYPE'));
  });

  it('answers JSON whatever the Accept header asks for', async () => {
    const response = await v1('GET', '/api/v1/products', { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('gives every response an X-Request-Id, echoing a safe incoming one and replacing an unsafe one', async () => {
    const responses = [
      await v1('GET', '/api/v1/products'),
      await v1('POST', '/api/v1/products', { body: { name: 'Ab' } }),
      await call(server.baseUrl, 'GET', '/api/v1/products'),
      await call(server.baseUrl, 'GET', '/nada'),
      await v1('PUT', '/api/v1/products'),
    ];
    for (const response of responses) expect(response.headers.get('x-request-id')).toMatch(UUID);
    expect(new Set(responses.map((r) => r.headers.get('x-request-id'))).size).toBe(responses.length);

    const safe = await v1('GET', '/api/v1/products', { headers: { 'x-request-id': 'trace-42.a_b' } });
    expect(safe.headers.get('x-request-id')).toBe('trace-42.a_b');
    const echoedOnError = await call(server.baseUrl, 'GET', '/api/v1/products', {
      headers: { 'x-request-id': 'trace-43' },
    });
    expect(echoedOnError.status).toBe(401);
    expect(echoedOnError.headers.get('x-request-id')).toBe('trace-43');
    for (const unsafe of ['has space', '<script>', 'x'.repeat(129)]) {
      const response = await v1('GET', '/api/v1/products', { headers: { 'x-request-id': unsafe } });
      expect(response.headers.get('x-request-id')).toMatch(UUID);
    }
  });

  describe('with handlers that fail', () => {
    let failing: TestServer;
    let failingTenant: Tenant;
    beforeAll(async () => {
      failing = await startServer({
        engine,
        overrides: {
          listProducts: async () => {
            throw new Error('boom: secret internals');
          },
          listCategories: brokenList as unknown as Handlers['listCategories'],
        },
      });
      failingTenant = await createTenant(failing);
    });
    afterAll(() => failing.close());

    it('answers a handler that throws with 500 INTERNAL_ERROR and no internals', async () => {
      const response = await call(failing.baseUrl, 'GET', '/api/v1/products', { headers: failingTenant.headers });
      expect(response.status).toBe(500);
      expect(response.body).toEqual(envelope(500, 'INTERNAL_ERROR'));
      const text = JSON.stringify(response.body);
      expect(text).not.toContain('boom');
      expect(text).not.toContain('secret');
      expect(text).not.toMatch(/\bat .*\.ts:\d+/);
      expect(response.headers.get('x-request-id')).toMatch(UUID);
    });

    it('turns a response that breaks the contract into a 500 with VALIDATE_RESPONSES=true', async () => {
      const response = await call(failing.baseUrl, 'GET', '/api/v1/categories', { headers: failingTenant.headers });
      expect(response.status).toBe(500);
      expect(response.body).toEqual(envelope(500, 'INTERNAL_ERROR'));
    });
  });

  it('does not check responses with VALIDATE_RESPONSES=false', async () => {
    const unchecked = await startServer({
      engine,
      env: { VALIDATE_RESPONSES: 'false' },
      overrides: { listProducts: brokenList },
    });
    try {
      const owner = await createTenant(unchecked);
      const response = await call(unchecked.baseUrl, 'GET', '/api/v1/products', { headers: owner.headers });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true, data: { products: [] } });
    } finally {
      await unchecked.close();
    }
  });
});
