import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminHeaders, call, createTenant, engines, startServer, type Tenant, type TestServer } from './harness.ts';

const WEBHOOK_SECRET = 'whsec_bG9nLXRlc3QtbmV2ZXItbG9nZ2VkLTAxMjM0NTY3';
const PARTNER_TOKEN = 'partner-token-never-logged-4567';
const URL_PASSWORD = 'hunter2-never-logged';

describe.each(engines)('the access log on %s', (engine) => {
  const lines: string[] = [];
  let server: TestServer;
  let tenant: Tenant;

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    server = await startServer({ engine, logger: pino({ level: 'info' }, sink) });
    tenant = await createTenant(server);
  });
  afterAll(async () => {
    await server.close();
  });

  it('records method, route template, operationId, status and duration; never the URL or a secret', async () => {
    const { apiKey, storeId } = tenant;
    const newKey = await call(server.baseUrl, 'POST', '/admin/api-keys', {
      headers: adminHeaders(server),
      body: { storeIds: [storeId] },
    });
    const shownOnce: string = newKey.body.data.apiKey.key;
    const checkout = await call(server.baseUrl, 'POST', `/admin/stores/${storeId}/checkout-keys`, {
      headers: adminHeaders(server),
      body: {},
    });
    const checkoutKey: string = checkout.body.data.checkoutKey.key;
    lines.length = 0;

    const requests: [string, string, Record<string, string>, unknown, number][] = [
      // Undeclared query parameters are ignored (200), and still never reach the log.
      ['GET', `/api/v1/products?apiKey=${apiKey}&token=${PARTNER_TOKEN}`, tenant.headers, undefined, 200],
      ['GET', '/api/v1/products?limit=5', tenant.headers, undefined, 200],
      ['GET', `/api/v1/products/${apiKey}`, tenant.headers, undefined, 400],
      ['GET', `/api/v1/${apiKey}`, tenant.headers, undefined, 404],
      [
        'POST',
        '/api/v1/webhooks',
        tenant.headers,
        {
          name: 'ERP',
          url: 'https://hooks.example.com/erp',
          events: ['ORDER_PAID'],
          secret: WEBHOOK_SECRET,
          headers: { Authorization: `Bearer ${PARTNER_TOKEN}` },
        },
        201,
      ],
      [
        'POST',
        '/api/v1/webhooks',
        tenant.headers,
        { name: 'ERP', url: `https://erp:${URL_PASSWORD}@hooks.example.com/erp`, events: ['ORDER_PAID'] },
        400,
      ],
      ['GET', '/api/v1/products', { authorization: `Bearer ${PARTNER_TOKEN}`, 'x-store-id': storeId }, undefined, 401],
      ['POST', '/admin/stores', { authorization: `Bearer ${PARTNER_TOKEN}` }, { name: 'Loja' }, 401],
      ['GET', `/checkout/payment-links/${storeId}?key=${checkoutKey}`, { 'x-api-key': checkoutKey }, undefined, 404],
    ];
    for (const [method, path, headers, body, status] of requests) {
      const response = await call(server.baseUrl, method, path, { headers, ...(body ? { body } : {}) });
      expect(response.status, `${method} ${path}`).toBe(status);
    }

    const access = lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'request');
    expect(access).toHaveLength(requests.length);
    expect(access[1]).toEqual({
      level: 30,
      time: expect.any(Number),
      pid: process.pid,
      hostname: expect.any(String),
      reqId: expect.any(String),
      method: 'GET',
      route: '/api/v1/products',
      operationId: 'listProducts',
      status: 200,
      ms: expect.any(Number),
      msg: 'request',
    });
    expect(access[3]).toMatchObject({ route: null, operationId: null, status: 404 });
    expect(access[2]).toMatchObject({ route: '/api/v1/products/{productId}', status: 400 });

    const log = lines.join('\n');
    for (const secret of [
      apiKey,
      shownOnce,
      checkoutKey,
      server.adminToken,
      WEBHOOK_SECRET,
      PARTNER_TOKEN,
      URL_PASSWORD,
      'hooks.example.com',
      'Bearer',
    ]) {
      expect(log).not.toContain(secret);
    }
    expect(log).not.toContain('?');
  });
});
