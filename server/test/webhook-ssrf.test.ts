import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { CONTRACT_PATH } from '../src/contract.ts';
import { WEBHOOKS_PER_STORE } from '../src/resources/webhooks/handlers.ts';
import { call, createTenant, engines, startServer, type Tenant, type TestServer } from './harness.ts';

/** The contract's named example, to compare whole error bodies with what it promises. */
function contractExample(name: string): { value: { error: unknown; meta: { status: number } } } {
  const document = YAML.parse(readFileSync(CONTRACT_PATH, 'utf8')) as {
    components: { examples: Record<string, { value: { error: unknown; meta: { status: number } } }> };
  };
  const example = document.components.examples[name];
  if (!example) throw new Error(`no example ${name}`);
  return example;
}

const hook = (url: string) => ({ name: 'ERP', url, events: ['ORDER_PAID'] });

/** Every form of issue 10's SSRF list, and the neighbours a guard is easily fooled by. */
const refused: [string, string][] = [
  ['loopback', 'http://127.0.0.1:3001/hook'],
  ['localhost', 'http://localhost:3001/hook'],
  ['IPv6 loopback', 'http://[::1]:3001/hook'],
  ['unspecified', 'http://0.0.0.0:3001/hook'],
  ['decimal', 'http://2130706433/hook'],
  ['hex', 'http://0x7f000001/hook'],
  ['short', 'http://127.1/hook'],
  ['IPv4-mapped IPv6', 'http://[::ffff:127.0.0.1]/hook'],
  ['cloud metadata', 'http://169.254.169.254/latest/meta-data/'],
  ['private', 'http://10.0.0.1/hook'],
  ['CGNAT', 'http://100.64.1.1/hook'],
  ['unique-local', 'http://[fd00::1]/hook'],
  ['multicast', 'http://239.1.2.3/hook'],
  ['userinfo', 'https://user:pass@hooks.example.com/hook'],
];

describe.each(engines)('webhook SSRF guard and cap on %s', (engine) => {
  let server: TestServer;
  let tenant: Tenant;
  const v1 = (method: string, path: string, body?: unknown, who: Tenant = tenant) =>
    call(server.baseUrl, method, path, { headers: who.headers, ...(body !== undefined ? { body } : {}) });

  beforeAll(async () => {
    server = await startServer({ engine });
    tenant = await createTenant(server);
  });
  afterAll(async () => {
    await server.close();
  });

  it.each(refused)(
    'refuses a %s URL at create and at update with 400 naming url, and stores nothing',
    async (_n, url) => {
      const created = await v1('POST', '/api/v1/webhooks', hook(url));
      expect(created.status).toBe(400);
      expect(created.body).toEqual({
        success: false,
        error: {
          message: 'Os dados enviados são inválidos.',
          code: 'VALIDATION_ERROR',
          details: [{ location: 'body', path: 'url', reason: expect.any(String), rule: 'webhook-url-public' }],
        },
        meta: { timestamp: expect.any(String), status: 400 },
      });
      expect(JSON.stringify(created.body)).not.toContain('pass@');

      const fresh = await createTenant(server);
      const accepted = await v1('POST', '/api/v1/webhooks', hook('https://hooks.example.com/ok'), fresh);
      expect(accepted.status).toBe(201);
      const id = accepted.body.data.webhook.id;
      const updated = await v1('PATCH', `/api/v1/webhooks/${id}`, { url }, fresh);
      expect(updated.status).toBe(400);
      expect(updated.body.error.details).toEqual([
        { location: 'body', path: 'url', reason: expect.any(String), rule: 'webhook-url-public' },
      ]);
      const read = await v1('GET', `/api/v1/webhooks/${id}`, undefined, fresh);
      expect(read.body.data.webhook.url).toBe('https://hooks.example.com/ok');
      expect((await v1('GET', '/api/v1/webhooks', undefined, fresh)).body.data.pagination.total).toBe(1);
    },
  );

  it('answers the loopback refusal exactly as the contract example WebhookUrlNotPublic', async () => {
    const response = await v1('POST', '/api/v1/webhooks', hook('http://127.0.0.1/hook'));
    const { value } = contractExample('WebhookUrlNotPublic');
    expect(response.body).toEqual({ ...value, meta: { ...value.meta, timestamp: expect.any(String) } });
  });

  it(`caps a store at ${WEBHOOKS_PER_STORE} webhooks with the contract's 409, and frees a place on delete`, async () => {
    const shop = await createTenant(server);
    const ids: string[] = [];
    for (let index = 0; index < WEBHOOKS_PER_STORE; index++) {
      const created = await v1('POST', '/api/v1/webhooks', hook(`https://hooks.example.com/${index}`), shop);
      expect(created.status).toBe(201);
      ids.push(created.body.data.webhook.id);
    }
    const over = await v1('POST', '/api/v1/webhooks', hook('https://hooks.example.com/over'), shop);
    expect(over.status).toBe(409);
    const { value } = contractExample('WebhookLimitReached');
    expect(over.body).toEqual({ ...value, meta: { ...value.meta, timestamp: expect.any(String) } });
    const listed = await v1('GET', '/api/v1/webhooks?limit=100', undefined, shop);
    expect(listed.body.data.pagination.total).toBe(WEBHOOKS_PER_STORE);
    // Another store is not affected by this one's cap.
    expect((await v1('POST', '/api/v1/webhooks', hook('https://hooks.example.com/other'))).status).toBe(201);
    expect((await v1('DELETE', `/api/v1/webhooks/${ids[0]}`, undefined, shop)).status).toBe(204);
    expect((await v1('POST', '/api/v1/webhooks', hook('https://hooks.example.com/again'), shop)).status).toBe(201);
  });
});

describe.each(engines)('WEBHOOK_ALLOW_PRIVATE_NETWORKS=true on %s', (engine) => {
  let server: TestServer;
  let tenant: Tenant;
  beforeAll(async () => {
    server = await startServer({ engine, env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } });
    tenant = await createTenant(server);
  });
  afterAll(async () => {
    await server.close();
  });

  it('accepts loopback and private URLs but still refuses a user and password', async () => {
    for (const url of ['http://127.0.0.1:3001/hook', 'http://localhost:3001/hook', 'http://10.0.0.1/hook']) {
      const created = await call(server.baseUrl, 'POST', '/api/v1/webhooks', {
        headers: tenant.headers,
        body: hook(url),
      });
      expect(created.status).toBe(201);
      expect(created.body.data.webhook.url).toBe(url);
    }
    const withUser = await call(server.baseUrl, 'POST', '/api/v1/webhooks', {
      headers: tenant.headers,
      body: hook('http://user:pass@127.0.0.1:3001/hook'),
    });
    expect(withUser.status).toBe(400);
    expect(withUser.body.error.details).toEqual([
      { location: 'body', path: 'url', reason: 'a URL não pode conter usuário ou senha', rule: 'webhook-url-public' },
    ]);
  });
});
