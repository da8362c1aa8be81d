import { expect } from 'vitest';
import { getInAbsoluteForm } from '../../../scripts/test-helpers/absolute-form.ts';
import { describeEngines, type ErrorBody, malformed, test } from '../../test/fixture.ts';
import { rawRequest } from '../../test/harness.ts';

/** A request the typed client would not send as it is (it encodes path parameters). */
async function raw(baseUrl: string, method: string, path: string, headers: Record<string, string>) {
  const { status, headers: answered, body } = await rawRequest(baseUrl, method, path, { headers });
  return { status, allow: answered.get('allow'), body };
}

const envelope = (status: number, code: string, message: string, details?: unknown[]): ErrorBody => ({
  success: false,
  error: { message, code, ...(details ? { details } : {}) } as ErrorBody['error'],
  meta: { timestamp: expect.any(String), status },
});

describeEngines('operation look-up', () => {
  test('getProductById names the path parameter of a malformed percent-escape in a 400', async ({ server, tenant }) => {
    const reply = await raw(server.baseUrl, 'GET', '/api/v1/products/%E0%A4%A', tenant.headers);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual(
      envelope(400, 'VALIDATION_ERROR', 'Os dados enviados são inválidos.', [
        { location: 'path', path: 'productId', reason: 'codificação percentual inválida (malformed URI)' },
      ]),
    );
  });

  test.for([
    ['a lone %', '/api/v1/products?search=50%_off', 'search'],
    ['a surrogate, percent-escaped', '/api/v1/products?limit=1&search=%ED%A0%80', 'search'],
    ['%zz in a name', '/api/v1/products?%zz=1', '%zz'],
  ])(
    'listProducts names the query parameter of %s in a 400 (percent-escapes that do not decode)',
    async ([, path, name], { server, tenant }) => {
      const reply = await raw(server.baseUrl, 'GET', path ?? '', tenant.headers);
      expect({ status: reply.status, body: reply.body }).toEqual({
        status: 400,
        body: envelope(400, 'VALIDATION_ERROR', 'Os dados enviados são inválidos.', [
          { location: 'query', path: name, reason: 'codificação percentual inválida (malformed URI)' },
        ]),
      });
    },
  );

  test.for([
    ['GET', '/api/v1/products/%ED%A0%80'],
    ['GET', '/api/v1/products/%E0%A4%A'],
    ['PATCH', '/api/v1/products/%'],
  ])(
    '%s %s without a key is 401 AUTH_API_KEY_REQUIRED: the key is checked before the path',
    async ([method, path], { server, tenant }) => {
      const reply = await raw(server.baseUrl, method ?? 'GET', path ?? '', { 'x-store-id': tenant.storeId });
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual(
        envelope(401, 'AUTH_API_KEY_REQUIRED', 'Chave de API ausente, inválida, expirada ou revogada.'),
      );
    },
  );

  test('a target in absolute form is routed by its path and query, as the same request in origin form', async ({
    api,
    server,
    tenant,
  }) => {
    await api.POST('/api/v1/products', { body: malformed({ name: 'Caneca', type: 'DIGITAL', price: 10 }) });
    const target = `${server.baseUrl}/api/v1/products?limit=1`;
    const absolute = await getInAbsoluteForm(target, tenant.headers);
    const origin = await raw(server.baseUrl, 'GET', '/api/v1/products?limit=1', tenant.headers);
    expect(absolute).toEqual({ status: 200, body: origin.body });
    expect(absolute.body).toMatchObject({ data: { pagination: { limit: 1, total: 1 } } });
  });

  test('a HEAD is answered as its path’s GET without a body: getProductById and listProducts, 200 and 404', async ({
    server,
    tenant,
    api,
  }) => {
    const created = await api.POST('/api/v1/products', {
      body: { name: 'Adesivo', type: 'DIGITAL', price: 10 } as never,
    });
    const id = created.data?.data.product.id ?? '';
    for (const path of [
      `/api/v1/products/${id}`,
      '/api/v1/products',
      '/api/v1/products/00000000-0000-4000-8000-000000000000',
    ]) {
      const [get, head] = await Promise.all(
        ['GET', 'HEAD'].map((method) => fetch(`${server.baseUrl}${path}`, { method, headers: tenant.headers })),
      );
      const body = await get?.text();
      expect({
        status: head?.status,
        type: head?.headers.get('content-type'),
        length: head?.headers.get('content-length'),
      }).toEqual({
        status: get?.status,
        type: get?.headers.get('content-type'),
        length: String(Buffer.byteLength(body ?? '')),
      });
      expect(head?.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      expect(await head?.text()).toBe('');
    }
  });

  test('a method the path lacks is 405 with Allow; an unknown path, another letter case or a trailing slash is 404', async ({
    server,
    tenant,
  }) => {
    const notAllowed = await raw(server.baseUrl, 'PUT', '/api/v1/products', tenant.headers);
    expect(notAllowed).toEqual({
      status: 405,
      allow: 'GET, POST, HEAD',
      body: envelope(405, 'METHOD_NOT_ALLOWED', 'Método não permitido para esta rota.'),
    });
    for (const path of ['/api/v1/nope', '/api/v1/products/', '/api/v1/Products', '/API/V1/PRODUCTS']) {
      const unknown = await raw(server.baseUrl, 'GET', path, tenant.headers);
      expect({ path, ...unknown }).toEqual({
        path,
        status: 404,
        allow: null,
        body: envelope(404, 'ROUTE_NOT_FOUND', 'Rota não encontrada.'),
      });
    }
    const exact = await raw(server.baseUrl, 'GET', '/api/v1/products', tenant.headers);
    expect(exact).toEqual({
      status: 200,
      allow: null,
      body: { success: true, data: { products: [], pagination: { page: 1, limit: 20, total: 0, totalPages: 0 } } },
    });
  });
});
