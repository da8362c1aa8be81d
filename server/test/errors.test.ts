import { deflateSync, gzipSync } from 'node:zlib';
import { expect } from 'vitest';
import type { components } from '../../generated/openapi.ts';
import { maxBodyBytes, readContract } from '../../lib/contract.ts';
import { keywordReason } from '../../lib/reasons.ts';
import type { Engine } from '../src/db/database.ts';
import type { Handlers } from '../src/resources/operation.ts';
import { detailsOf, envelopeOf, UNKNOWN, UUID } from './catalog.ts';
import { type Api, clientOf, describeEngines, malformed, test, withoutDefaults } from './fixture.ts';
import { createTenant, rawRequest, type StartOptions, startServer } from './harness.ts';

const MESSAGE = {
  VALIDATION_ERROR: 'Os dados enviados são inválidos.',
  ROUTE_NOT_FOUND: 'Rota não encontrada.',
  METHOD_NOT_ALLOWED: 'Método não permitido para esta rota.',
  PAYLOAD_TOO_LARGE: 'O corpo da requisição é grande demais.',
  UNSUPPORTED_MEDIA_TYPE:
    'O corpo da requisição deve ser JSON em UTF-8 (Content-Type: application/json), sem Content-Encoding.',
  INTERNAL_ERROR: 'Erro interno do servidor.',
} as const;

/** The whole section 7 envelope: status, code, meta.status, the Portuguese message, nothing else. */
const envelope = envelopeOf(MESSAGE);
const product = withoutDefaults<components['schemas']['ProductCreate']>({
  name: 'Caneca Esmaltada',
  type: 'DIGITAL',
  price: 10,
});

/** A handler whose reply does not match the contract (the list without `pagination`). */
const brokenList = (async () => ({
  status: 200,
  body: { success: true, data: { products: [] } },
})) as unknown as Handlers['listProducts'];

/** A server whose handlers fail, with a client of a tenant of it. */
async function failingServer(engine: Engine, options: Omit<StartOptions, 'engine'>) {
  const server = await startServer({ engine, ...options });
  return { server, api: clientOf(server, await createTenant(server)) };
}

// Paths and methods the contract lacks go through rawRequest: a typed client cannot name them.
describeEngines('the error path', () => {
  test("words a date-time that is not text as a type error, in the contract's words", async ({ api }) => {
    const { response, error } = await api.POST('/api/v1/order-bumps', { body: malformed({ startsAt: 12 }) });
    expect(response.status).toBe(400);
    expect(detailsOf(error)).toContainEqual({
      location: 'body',
      path: 'startsAt',
      reason: `${keywordReason('type')} (must be string)`,
    });
  });

  test('answers malformed JSON with 400 VALIDATION_ERROR naming the body', async ({ api }) => {
    const { response, error } = await api.POST('/api/v1/products', {
      body: product,
      bodySerializer: () => '{"name": "Caneca",',
    });
    expect(response.status).toBe(400);
    expect(error).toEqual(
      envelope(400, 'VALIDATION_ERROR', [
        { location: 'body', path: '', reason: expect.stringMatching(/^JSON malformado: .*JSON/) },
      ]),
    );
  });

  test.for([
    ['an unknown v1 path, with a key', '/api/v1/produtos', true],
    ['an unknown v1 path, without a key', '/api/v1/produtos', false],
    ['a path outside the API', '/wp-admin/index.php', false],
    ['a known path with an extra segment', `/api/v1/products/${UNKNOWN}/x`, true],
  ] as const)('answers 404 ROUTE_NOT_FOUND for %s', async ([, path, withKey], { server, tenant }) => {
    const response = await rawRequest(server.baseUrl, 'GET', path, withKey ? { headers: tenant.headers } : {});
    expect(response.status).toBe(404);
    expect(response.body).toEqual(envelope(404, 'ROUTE_NOT_FOUND'));
  });

  test.for([
    ['PUT', '/api/v1/products', 'GET, HEAD, POST'],
    ['DELETE', '/api/v1/categories', 'GET, HEAD, POST'],
    ['POST', `/api/v1/products/${UNKNOWN}`, 'GET, HEAD, PATCH, DELETE'],
  ] as const)(
    'answers %s %s with 405 METHOD_NOT_ALLOWED and an Allow header',
    async ([method, path, allow], { server, tenant }) => {
      const response = await rawRequest(server.baseUrl, method, path, { headers: tenant.headers });
      expect(response.status).toBe(405);
      expect(response.body).toEqual(envelope(405, 'METHOD_NOT_ALLOWED'));
      expect(
        response.headers
          .get('allow')
          ?.split(/,\s*/)
          .map((m) => m.toUpperCase())
          .sort(),
      ).toEqual(allow.split(', ').sort());
    },
  );

  test("answers a body over the contract's x-max-body-bytes with 413 PAYLOAD_TOO_LARGE, and reads one at it", async ({
    api,
  }) => {
    // The product with its description grown until the JSON is `length` bytes long.
    const ofLength = (length: number) => {
      const bytes = Buffer.byteLength(JSON.stringify({ ...product, description: '' }));
      return { ...product, description: 'x'.repeat(length - bytes) };
    };
    const limit = maxBodyBytes(readContract()) ?? Number.NaN;
    expect(Buffer.byteLength(JSON.stringify(ofLength(limit + 1)))).toBe(limit + 1);
    const over = await api.POST('/api/v1/products', { body: ofLength(limit + 1) });
    expect({ status: over.response.status, error: over.error }).toEqual({
      status: 413,
      error: envelope(413, 'PAYLOAD_TOO_LARGE'),
    });
    // At the limit the body is read and judged: its description is longer than the schema allows.
    const at = await api.POST('/api/v1/products', { body: ofLength(limit) });
    expect(at.response.status).toBe(400);
    expect(detailsOf(at.error)).toEqual([
      { location: 'body', path: 'description', reason: expect.stringContaining('must NOT have more than') },
    ]);
  });

  test.for([
    ['text/plain', JSON.stringify(product)],
    ['application/x-www-form-urlencoded', 'name=Caneca&type=DIGITAL&price=10'],
    ['application/json; charset=latin1', JSON.stringify(product)],
    ['application/json, text/plain', JSON.stringify(product)],
  ] as const)('answers a %s body with 415 UNSUPPORTED_MEDIA_TYPE', async ([contentType, rawBody], { api }) => {
    const { response, error } = await api.POST('/api/v1/products', {
      body: product,
      bodySerializer: () => rawBody,
      headers: { 'content-type': contentType },
    });
    expect(response.status).toBe(415);
    expect(error).toEqual(envelope(415, 'UNSUPPORTED_MEDIA_TYPE'));
  });

  test('answers a POST without a body or a JSON Content-Type with 415 UNSUPPORTED_MEDIA_TYPE', async ({ api }) => {
    const { response, error } = await api.POST('/api/v1/products', {
      body: product,
      bodySerializer: () => undefined,
      headers: { 'content-type': '' },
    });
    expect(response.status).toBe(415);
    expect(error).toEqual(envelope(415, 'UNSUPPORTED_MEDIA_TYPE'));
  });

  test.for([
    ['in UTF-16 (charset=utf-16)', { 'content-type': 'application/json; charset=utf-16' }, 'utf-16'],
    ['gzipped (Content-Encoding: gzip)', { 'content-encoding': 'gzip' }, 'gzip'],
    ['deflated (Content-Encoding: deflate)', { 'content-encoding': 'deflate' }, 'deflate'],
  ] as const)(
    'answers a JSON body %s, well formed, with 415 UNSUPPORTED_MEDIA_TYPE and creates nothing',
    async ([, headers, encoding], { api, server, tenant }) => {
      const json = JSON.stringify(product);
      const bytes = {
        'utf-16': () => Buffer.from(json, 'utf16le'),
        gzip: () => gzipSync(json),
        deflate: () => deflateSync(json),
      }[encoding]();
      const response = await rawRequest(server.baseUrl, 'POST', '/api/v1/products', {
        headers: { 'content-type': 'application/json', ...tenant.headers, ...headers },
        body: new Uint8Array(bytes),
      });
      expect({ status: response.status, body: response.body }).toEqual({
        status: 415,
        body: envelope(415, 'UNSUPPORTED_MEDIA_TYPE'),
      });
      expect((await api.GET('/api/v1/products')).data?.data.products).toEqual([]);
    },
  );

  test('answers JSON whatever the Accept header asks for', async ({ api }) => {
    const { response } = await api.GET('/api/v1/products', { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  });
});

describeEngines('request ids and failing handlers', () => {
  test('gives every response an X-Request-Id, echoing a safe incoming one and replacing an unsafe one', async ({
    api,
    server,
    tenant,
    clientWith,
  }) => {
    const anonymous = clientWith({});
    const headersOf = [
      (await api.GET('/api/v1/products')).response.headers,
      (await api.POST('/api/v1/products', { body: malformed({ name: 'Ab' }) })).response.headers,
      (await anonymous.GET('/api/v1/products')).response.headers,
      (await rawRequest(server.baseUrl, 'GET', '/nada')).headers,
      (await rawRequest(server.baseUrl, 'PUT', '/api/v1/products', { headers: tenant.headers })).headers,
    ];
    for (const headers of headersOf) expect(headers.get('x-request-id')).toMatch(UUID);
    expect(new Set(headersOf.map((headers) => headers.get('x-request-id'))).size).toBe(headersOf.length);

    const requestId = async (client: Api, id: string) => {
      const { response } = await client.GET('/api/v1/products', { headers: { 'x-request-id': id } });
      return { status: response.status, echoed: response.headers.get('x-request-id') };
    };
    expect((await requestId(api, 'trace-42.a_b')).echoed).toBe('trace-42.a_b');
    expect(await requestId(anonymous, 'trace-43')).toEqual({ status: 401, echoed: 'trace-43' });
    expect((await requestId(api, 'x'.repeat(128))).echoed).toBe('x'.repeat(128));
    for (const unsafe of ['has space', '<script>', 'x'.repeat(129)]) {
      expect((await requestId(api, unsafe)).echoed).toMatch(UUID);
    }
  });

  test('answers a handler that throws with 500 INTERNAL_ERROR and no internals; a response that breaks the contract is a 500 with VALIDATE_RESPONSES=true', async ({
    engine,
  }) => {
    const failing = await failingServer(engine, {
      overrides: {
        listProducts: async () => {
          throw new Error('boom: secret internals');
        },
        listCategories: brokenList as unknown as Handlers['listCategories'],
      },
    });
    try {
      const { response, error } = await failing.api.GET('/api/v1/products');
      expect(response.status).toBe(500);
      expect(error).toEqual(envelope(500, 'INTERNAL_ERROR'));
      const text = JSON.stringify(error);
      expect(text).not.toContain('boom');
      expect(text).not.toContain('secret');
      expect(text).not.toMatch(/\bat .*\.ts:\d+/);
      expect(response.headers.get('x-request-id')).toMatch(UUID);

      const broken = await failing.api.GET('/api/v1/categories');
      expect(broken.response.status).toBe(500);
      expect(broken.error).toEqual(envelope(500, 'INTERNAL_ERROR'));
    } finally {
      await failing.server.close();
    }
  });

  test('does not check responses with VALIDATE_RESPONSES=false', async ({ engine }) => {
    const unchecked = await failingServer(engine, {
      env: { VALIDATE_RESPONSES: 'false' },
      overrides: { listProducts: brokenList },
    });
    try {
      const { response, data } = await unchecked.api.GET('/api/v1/products');
      expect(response.status).toBe(200);
      expect(data).toEqual({ success: true, data: { products: [] } });
    } finally {
      await unchecked.server.close();
    }
  });
});
