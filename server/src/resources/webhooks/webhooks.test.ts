import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, createTenant, engines, startServer, type Tenant, type TestServer } from '../../../test/harness.ts';
import { newWebhookSecret } from '../../domain/secrets.ts';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

const erp = {
  name: 'ERP - pedidos',
  description: 'Envia pedidos pagos ao ERP.',
  url: 'https://erp.lojadamaria.com.br/webhooks/storefront',
  events: ['ORDER_CREATED', 'ORDER_PAID'],
  active: true,
  retryAttempts: 3,
  timeout: 5000,
  secret: SECRET,
  headers: { 'X-Erp-Tenant': 'loja-maria' },
};

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A local receiver: records every request; `failFirst` answers 500 to that many requests first. */
async function receiver(failFirst = 0) {
  const received: Received[] = [];
  let failures = failFirst;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.statusCode = failures-- > 0 ? 500 : 204;
      res.end();
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Verifies a delivery the way a receiver would: the `standardwebhooks` library with default settings. */
function verify(secret: string, delivery: Received): boolean {
  const headers = {
    'webhook-id': String(delivery.headers['webhook-id']),
    'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
    'webhook-signature': String(delivery.headers['webhook-signature']),
  };
  try {
    new Webhook(secret).verify(delivery.body, headers);
    return true;
  } catch {
    return false;
  }
}

describe.each(engines)('webhooks on %s', (engine) => {
  let server: TestServer;
  let tenant: Tenant;
  let other: Tenant;
  /** Every response body, to prove the secret never comes back. */
  const seen: string[] = [];
  const v1 = async (method: string, path: string, body?: unknown, who: Tenant = tenant) => {
    const response = await call(server.baseUrl, method, path, {
      headers: who.headers,
      ...(body !== undefined ? { body } : {}),
    });
    seen.push(JSON.stringify(response.body ?? null));
    return response;
  };

  beforeAll(async () => {
    server = await startServer({
      engine,
      env: { WEBHOOK_RETRY_SCHEDULE: '1,1,2', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' },
    });
    tenant = await createTenant(server);
    other = await createTenant(server);
  });
  afterAll(async () => {
    await server.close();
    for (const body of seen) expect(body).not.toContain(SECRET);
  });

  it('createWebhook (201) never shows its secret; getWebhookById reads it back', async () => {
    const created = await v1('POST', '/api/v1/webhooks', erp);
    expect(created.status).toBe(201);
    const { secret: _secret, ...shown } = erp;
    const webhook = created.body.data.webhook;
    expect(created.body).toEqual({
      success: true,
      data: {
        webhook: {
          id: expect.any(String),
          storeId: tenant.storeId,
          ...shown,
          hasSecret: true,
          createdAt: expect.any(String),
          updatedAt: webhook.createdAt,
        },
      },
    });
    expect(webhook).not.toHaveProperty('secret');
    const read = await v1('GET', `/api/v1/webhooks/${webhook.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
    const list = await v1('GET', '/api/v1/webhooks?limit=100');
    expect(list.body.data.webhooks).toContainEqual(webhook);
  });

  it('createWebhook applies the defaults: active, 3 retries, 5000 ms, no secret, no headers', async () => {
    const created = await v1('POST', '/api/v1/webhooks', {
      name: 'Mínimo',
      url: 'https://hooks.example.com/min',
      events: ['PRODUCT_CREATED'],
    });
    expect(created.status).toBe(201);
    expect(created.body.data.webhook).toEqual({
      id: expect.any(String),
      storeId: tenant.storeId,
      name: 'Mínimo',
      description: null,
      url: 'https://hooks.example.com/min',
      events: ['PRODUCT_CREATED'],
      active: true,
      retryAttempts: 3,
      timeout: 5000,
      hasSecret: false,
      headers: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it('updateWebhook changes only the sent fields; a secret can be set, rotated and removed', async () => {
    const { secret: _secret, ...unsigned } = erp;
    const webhook = (await v1('POST', '/api/v1/webhooks', unsigned)).body.data.webhook;
    expect(webhook.hasSecret).toBe(false);
    const signed = await v1('PATCH', `/api/v1/webhooks/${webhook.id}`, { secret: SECRET, active: false });
    expect(signed.status).toBe(200);
    expect(signed.body.data.webhook).toEqual({
      ...webhook,
      active: false,
      hasSecret: true,
      updatedAt: expect.any(String),
    });
    const events = await v1('PATCH', `/api/v1/webhooks/${webhook.id}`, { events: ['ORDER_REFUNDED'] });
    expect(events.body.data.webhook).toMatchObject({ events: ['ORDER_REFUNDED'], active: false, hasSecret: true });
    const removed = await v1('PATCH', `/api/v1/webhooks/${webhook.id}`, { secret: null, headers: null });
    expect(removed.body.data.webhook).toMatchObject({ hasSecret: false, headers: null });
    expect((await v1('GET', `/api/v1/webhooks/${webhook.id}`)).body.data.webhook).toEqual(removed.body.data.webhook);
    expect((await v1('PATCH', `/api/v1/webhooks/${webhook.id}`, {})).status).toBe(400);
  });

  it.each([
    ['missing name', { ...erp, name: undefined }, 'name'],
    ['a url that is not http(s)', { ...erp, url: 'ftp://erp.example.com/hook' }, 'url'],
    ['no events', { ...erp, events: [] }, 'events'],
    ['an unknown event', { ...erp, events: ['ORDER_LOST'] }, 'events.0'],
    ['repeated events', { ...erp, events: ['ORDER_PAID', 'ORDER_PAID'] }, 'events'],
    ['retryAttempts above 10', { ...erp, retryAttempts: 11 }, 'retryAttempts'],
    ['timeout below 1000', { ...erp, timeout: 999 }, 'timeout'],
    ['a secret shorter than 16', { ...erp, secret: 'curto' }, 'secret'],
    ['a secret not of the whsec_ form', { ...erp, secret: 'my-very-long-shared-secret-value-2024' }, 'secret'],
    ['a secret of 16 bytes (under 24)', { ...erp, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILA==' }, 'secret'],
    ['a secret in base64url', { ...erp, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2La-a_w' }, 'secret'],
    ['a header name with spaces', { ...erp, headers: { 'X Bad': 'v' } }, 'headers'],
    ['hasSecret sent', { ...erp, hasSecret: true }, 'hasSecret'],
  ])('createWebhook rejects %s with 400 VALIDATION_ERROR naming the field', async (_name, body, field) => {
    const response = await v1('POST', '/api/v1/webhooks', JSON.parse(JSON.stringify(body)));
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' }, meta: { status: 400 } });
    expect(response.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
  });

  it.each([
    ['every webhook', ''],
    ['the events filter', 'events=ORDER_PAID,ORDER_CREATED&'],
  ])(
    'listWebhooks pages through %s: the pages, near and far end, add up to the whole list in order',
    async (_name, filter) => {
      const fresh = await createTenant(server);
      for (let index = 0; index < 7; index++) {
        const events = index % 2 === 0 ? ['ORDER_PAID'] : ['ORDER_CREATED', 'ORDER_PAID'];
        const created = await v1(
          'POST',
          '/api/v1/webhooks',
          { name: `w${index}`, url: 'https://h.example.com/x', events },
          fresh,
        );
        expect(created.status).toBe(201);
      }
      const ids = async (query: string) =>
        (await v1('GET', `/api/v1/webhooks?${filter}${query}`, undefined, fresh)).body.data.webhooks.map(
          (w: { name: string }) => w.name,
        );
      const whole = await ids('limit=100');
      expect([...whole].sort()).toEqual(['w0', 'w1', 'w2', 'w3', 'w4', 'w5', 'w6']);
      for (const limit of [1, 2, 3]) {
        const pages: string[] = [];
        for (let page = 1; page <= Math.ceil(7 / limit); page++)
          pages.push(...(await ids(`limit=${limit}&page=${page}`)));
        expect(pages).toEqual(whole);
      }
    },
  );

  it('listWebhooks keeps its totals right through createWebhook, updateWebhook activation changes and deleteWebhook', async () => {
    const fresh = await createTenant(server);
    const totals = async () => {
      const read = async (query: string) =>
        (await v1('GET', `/api/v1/webhooks?${query}`, undefined, fresh)).body.data.pagination.total;
      return { all: await read(''), active: await read('active=true'), inactive: await read('active=false') };
    };
    expect(await totals()).toEqual({ all: 0, active: 0, inactive: 0 });
    const make = async (name: string, active: boolean) =>
      (
        await v1(
          'POST',
          '/api/v1/webhooks',
          { name, url: 'https://h.example.com/x', events: ['ORDER_PAID'], active },
          fresh,
        )
      ).body.data.webhook.id as string;
    const first = await make('a', true);
    const second = await make('b', true);
    await make('c', false);
    expect(await totals()).toEqual({ all: 3, active: 2, inactive: 1 });
    await v1('PATCH', `/api/v1/webhooks/${first}`, { active: false }, fresh);
    await v1('PATCH', `/api/v1/webhooks/${first}`, { name: 'a2' }, fresh);
    expect(await totals()).toEqual({ all: 3, active: 1, inactive: 2 });
    expect((await v1('DELETE', `/api/v1/webhooks/${second}`, undefined, fresh)).status).toBe(204);
    expect((await v1('DELETE', `/api/v1/webhooks/${second}`, undefined, fresh)).status).toBe(404);
    expect(await totals()).toEqual({ all: 2, active: 0, inactive: 2 });
  });

  it('listWebhooks filters by active and by any of the comma-separated events, newest first, with pagination', async () => {
    const fresh = await createTenant(server);
    const make = (name: string, events: string[], active = true) =>
      v1('POST', '/api/v1/webhooks', { name, url: 'https://hooks.example.com/x', events, active }, fresh);
    await make('criado', ['ORDER_CREATED']);
    await make('pago', ['ORDER_PAID', 'ORDER_SHIPPED']);
    await make('produto', ['PRODUCT_CREATED'], false);
    await make('cliente', ['CUSTOMER_CREATED']);
    const names = async (query: string) => {
      const response = await v1('GET', `/api/v1/webhooks?${query}`, undefined, fresh);
      expect(response.status).toBe(200);
      return response.body.data.webhooks.map((w: { name: string }) => w.name);
    };
    expect(await names('events=ORDER_CREATED,ORDER_PAID')).toEqual(['pago', 'criado']);
    expect(await names('events=ORDER_SHIPPED')).toEqual(['pago']);
    expect(await names('active=false')).toEqual(['produto']);
    expect(await names('active=true&events=PRODUCT_CREATED,CUSTOMER_CREATED')).toEqual(['cliente']);
    expect(await names('')).toEqual(['cliente', 'produto', 'pago', 'criado']);
    const page = await v1('GET', '/api/v1/webhooks?limit=3&page=2', undefined, fresh);
    expect(page.body.data).toEqual({
      webhooks: [expect.objectContaining({ name: 'criado' })],
      pagination: { page: 2, limit: 3, total: 4, totalPages: 2 },
    });
    const beyond = await v1('GET', '/api/v1/webhooks?limit=3&page=9', undefined, fresh);
    expect(beyond.body.data.webhooks).toEqual([]);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['page=0', 'page'],
    ['active=maybe', 'active'],
    ['events=ORDER_CREATED,ORDER_LOST', 'events.1'],
    ['events=order_created', 'events.0'],
  ])('listWebhooks rejects the query %s with 400 naming the parameter', async (query, field) => {
    const response = await v1('GET', `/api/v1/webhooks?${query}`);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.body.error.details[0]).toMatchObject({ location: 'query', path: field });
  });

  it('getWebhookById, updateWebhook and deleteWebhook answer 404 for unknown ids and another store’s webhook; deleteWebhook deletes', async () => {
    const webhook = (await v1('POST', '/api/v1/webhooks', erp)).body.data.webhook;
    const unknown = await v1('GET', `/api/v1/webhooks/${UNKNOWN}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('RESOURCE_NOT_FOUND');
    expect((await v1('GET', `/api/v1/webhooks/${webhook.id}`, undefined, other)).status).toBe(404);
    expect((await v1('PATCH', `/api/v1/webhooks/${webhook.id}`, { active: false }, other)).status).toBe(404);
    expect((await v1('DELETE', `/api/v1/webhooks/${webhook.id}`, undefined, other)).status).toBe(404);
    expect((await v1('GET', '/api/v1/webhooks?limit=100', undefined, other)).body.data.webhooks).toEqual([]);
    expect((await v1('DELETE', `/api/v1/webhooks/${webhook.id}`)).status).toBe(204);
    expect((await v1('GET', `/api/v1/webhooks/${webhook.id}`)).status).toBe(404);
  });

  it('createWebhook and listWebhooks deny keys without the webhook scopes (403 AUTH_SCOPE_DENIED)', async () => {
    const readOnly = await createTenant(server, ['webhooks:read']);
    const denied = await v1('POST', '/api/v1/webhooks', erp, readOnly);
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('AUTH_SCOPE_DENIED');
    expect((await v1('GET', '/api/v1/webhooks', undefined, readOnly)).status).toBe(200);
    const unrelated = await createTenant(server, ['products:read']);
    expect((await v1('GET', '/api/v1/webhooks', undefined, unrelated)).status).toBe(403);
  });

  it('createWebhook subscribers get a signed event (createProduct), active ones only, with the custom headers', async () => {
    const hooks = await receiver();
    try {
      const shop = await createTenant(server);
      const signed = (
        await v1(
          'POST',
          '/api/v1/webhooks',
          {
            name: 'Catálogo',
            url: hooks.url('/signed'),
            events: ['PRODUCT_CREATED'],
            secret: SECRET,
            headers: { 'X-Erp-Tenant': 'loja-maria', 'Webhook-Id': 'forged' },
          },
          shop,
        )
      ).body.data.webhook;
      await v1('POST', '/api/v1/webhooks', { ...erp, url: hooks.url('/orders-only') }, shop);
      await v1(
        'POST',
        '/api/v1/webhooks',
        { name: 'Pausado', url: hooks.url('/paused'), events: ['PRODUCT_CREATED'], active: false },
        shop,
      );
      const product = await v1('POST', '/api/v1/products', { name: 'Caneca', type: 'DIGITAL', price: 10 }, shop);
      expect(product.status).toBe(201);
      await vi.waitFor(() => expect(hooks.received).toHaveLength(1), { timeout: 5000, interval: 20 });
      const [delivery] = hooks.received;
      if (!delivery) throw new Error('no delivery');
      expect(delivery.path).toBe('/signed');
      expect(delivery.headers['content-type']).toBe('application/json');
      expect(delivery.headers['x-erp-tenant']).toBe('loja-maria');
      expect(delivery.headers['webhook-id']).toMatch(/^msg_[A-Za-z0-9]+$/);
      expect(Number(delivery.headers['webhook-timestamp'])).toBeGreaterThan(1_600_000_000);
      expect(verify(SECRET, delivery)).toBe(true);
      expect(verify(newWebhookSecret(), delivery)).toBe(false);
      expect(JSON.parse(delivery.body)).toEqual({
        id: delivery.headers['webhook-id'],
        type: 'PRODUCT_CREATED',
        createdAt: expect.any(String),
        storeId: shop.storeId,
        data: { product: product.body.data.product },
      });
      expect(signed.hasSecret).toBe(true);
      // A second event arrives after any stray delivery of the first would have: still only /signed.
      await v1('POST', '/api/v1/products', { name: 'Caneca Azul', type: 'DIGITAL', price: 10 }, shop);
      await vi.waitFor(() => expect(hooks.received).toHaveLength(2), { timeout: 5000, interval: 20 });
      expect(hooks.received.map((r) => r.path)).toEqual(['/signed', '/signed']);
    } finally {
      await hooks.close();
    }
  });

  it('createWebhook: a failed delivery is retried with the same webhook-id and a fresh signature', async () => {
    const hooks = await receiver(2);
    try {
      const shop = await createTenant(server);
      await v1(
        'POST',
        '/api/v1/webhooks',
        { name: 'Instável', url: hooks.url('/flaky'), events: ['PRODUCT_CREATED'], secret: SECRET, retryAttempts: 3 },
        shop,
      );
      await v1('POST', '/api/v1/products', { name: 'Boné', type: 'DIGITAL', price: 10 }, shop);
      await vi.waitFor(() => expect(hooks.received).toHaveLength(3), { timeout: 5000, interval: 20 });
      expect(new Set(hooks.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
      for (const attempt of hooks.received) expect(verify(SECRET, attempt)).toBe(true);
    } finally {
      await hooks.close();
    }
  });
});
