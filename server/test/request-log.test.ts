import { Writable } from 'node:stream';
import createClient from 'openapi-fetch';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components, paths } from '../../generated/openapi.ts';
import { clientOf, withoutDefaults } from './fixture.ts';
import {
  adminHeaders,
  createTenant,
  engines,
  type RawResponse,
  rawRequest,
  startServer,
  type Tenant,
  type TestServer,
} from './harness.ts';

const WEBHOOK_SECRET = 'whsec_bG9nLXRlc3QtbmV2ZXItbG9nZ2VkLTAxMjM0NTY3';
const PARTNER_TOKEN = 'partner-token-never-logged-4567';
const URL_PASSWORD = 'hunter2-never-logged';
type WebhookCreate = components['schemas']['WebhookCreate'];

/** The status of an answer, from the typed client or from rawRequest. */
const statusOf = (answer: { response: Response } | RawResponse) =>
  'response' in answer ? answer.response.status : answer.status;

/** A second API key and a checkout key on the tenant's store: secrets the log must not carry either. */
async function moreSecrets(server: TestServer, { storeId }: Tenant) {
  const admin = createClient<paths>({ baseUrl: server.baseUrl, headers: adminHeaders(server) });
  const newKey = await admin.POST('/admin/api-keys', { body: { storeIds: [storeId] } });
  const checkout = await admin.POST('/admin/stores/{storeId}/checkout-keys', { params: { path: { storeId } } });
  return { shownOnce: newKey.data?.data.apiKey.key ?? '', checkoutKey: checkout.data?.data.checkoutKey.key ?? '' };
}

/**
 * Requests with secrets in every place a client may put one (query, path, body, headers, URL credentials), each
 * with the status it is answered: `[what, send, status]`.
 */
function requestsWithSecrets(server: TestServer, tenant: Tenant, checkoutKey: string) {
  const { apiKey, storeId } = tenant;
  const api = clientOf(server, tenant);
  /** A client sending exactly these headers. */
  const as = (headers: Record<string, string>) => clientOf(server, { ...tenant, headers });
  const webhook = (fields: Pick<WebhookCreate, 'url'> & Partial<WebhookCreate>) =>
    withoutDefaults<WebhookCreate>({ name: 'ERP', events: ['ORDER_PAID'], ...fields });
  const requests: [string, () => Promise<{ response: Response } | RawResponse>, number][] = [
    // Undeclared query parameters are ignored (200), and still never reach the log.
    [
      'listProducts with undeclared apiKey and token parameters',
      () => api.GET('/api/v1/products', { querySerializer: () => `apiKey=${apiKey}&token=${PARTNER_TOKEN}` }),
      200,
    ],
    ['listProducts', () => api.GET('/api/v1/products', { params: { query: { limit: 5 } } }), 200],
    [
      'getProductById with the key as id',
      () => api.GET('/api/v1/products/{productId}', { params: { path: { productId: apiKey } } }),
      400,
    ],
    ['a path of no operation', () => rawRequest(server.baseUrl, 'GET', `/api/v1/${apiKey}`), 404],
    [
      'createWebhook with a secret and a partner header',
      () =>
        api.POST('/api/v1/webhooks', {
          body: webhook({
            url: 'https://hooks.example.com/erp',
            secret: WEBHOOK_SECRET,
            headers: { Authorization: `Bearer ${PARTNER_TOKEN}` },
          }),
        }),
      201,
    ],
    [
      'createWebhook with a password in the URL',
      () =>
        api.POST('/api/v1/webhooks', { body: webhook({ url: `https://erp:${URL_PASSWORD}@hooks.example.com/erp` }) }),
      400,
    ],
    [
      'listProducts with a partner token',
      () => as({ authorization: `Bearer ${PARTNER_TOKEN}`, 'x-store-id': storeId }).GET('/api/v1/products'),
      401,
    ],
    [
      'createStore with a partner token',
      () =>
        as({ authorization: `Bearer ${PARTNER_TOKEN}` }).POST('/admin/stores', {
          body: withoutDefaults<components['schemas']['StoreCreate']>({ name: 'Loja' }),
        }),
      401,
    ],
    [
      'getPaymentLink with the checkout key in the query',
      () =>
        as({ 'x-api-key': checkoutKey }).GET('/checkout/payment-links/{paymentLinkId}', {
          params: { path: { paymentLinkId: storeId } },
          querySerializer: () => `key=${checkoutKey}`,
        }),
      404,
    ],
  ];
  return requests;
}

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
    const { shownOnce, checkoutKey } = await moreSecrets(server, tenant);
    lines.length = 0;
    const requests = requestsWithSecrets(server, tenant, checkoutKey);
    for (const [what, send, status] of requests) expect(statusOf(await send()), what).toBe(status);

    const access = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((entry) => entry.msg === 'request');
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
    const secrets = [tenant.apiKey, shownOnce, checkoutKey, server.adminToken, WEBHOOK_SECRET, PARTNER_TOKEN];
    for (const secret of [...secrets, URL_PASSWORD, 'hooks.example.com', 'Bearer']) {
      expect(log).not.toContain(secret);
    }
    expect(log).not.toContain('?');
  });
});
