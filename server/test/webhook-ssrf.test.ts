import { expect } from 'vitest';
import type { components } from '../../generated/openapi.ts';
import { WEBHOOKS_PER_STORE } from '../src/resources/webhooks/handlers.ts';
import { detailsOf } from './catalog.ts';
import { asContractExample } from './contract-example.ts';
import { deletedAnswer, deletion } from './deletion.ts';
import { type Api, describeEngines, test, withoutDefaults } from './fixture.ts';

type WebhookCreate = components['schemas']['WebhookCreate'];
const hook = (url: string) => withoutDefaults<WebhookCreate>({ name: 'ERP', url, events: ['ORDER_PAID'] });
const at = (webhookId: string) => ({ params: { path: { webhookId } } });
/** createWebhook; the new webhook's id (fails the test when not created). */
const newWebhook = async (api: Api, url: string) => {
  const created = await api.POST('/api/v1/webhooks', { body: hook(url) });
  expect(created.response.status).toBe(201);
  return created.data?.data.webhook.id ?? '';
};

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

describeEngines('webhook SSRF guard and cap', () => {
  test.for(refused)(
    'refuses a %s URL at create and at update with 400 naming url, and stores nothing',
    async ([, url], { api, otherStore }) => {
      const created = await api.POST('/api/v1/webhooks', { body: hook(url) });
      expect(created.response.status).toBe(400);
      expect(created.error).toEqual({
        success: false,
        error: {
          message: 'Os dados enviados são inválidos.',
          code: 'VALIDATION_ERROR',
          details: [{ location: 'body', path: 'url', reason: expect.any(String), rule: 'webhook-url-public' }],
        },
        meta: { timestamp: expect.any(String), status: 400 },
      });
      expect(JSON.stringify(created.error)).not.toContain('pass@');

      const id = await newWebhook(otherStore, 'https://hooks.example.com/ok');
      const updated = await otherStore.PATCH('/api/v1/webhooks/{webhookId}', { ...at(id), body: { url } });
      expect(updated.response.status).toBe(400);
      expect(detailsOf(updated.error)).toEqual([
        { location: 'body', path: 'url', reason: expect.any(String), rule: 'webhook-url-public' },
      ]);
      const read = await otherStore.GET('/api/v1/webhooks/{webhookId}', at(id));
      expect(read.data?.data.webhook.url).toBe('https://hooks.example.com/ok');
      expect((await otherStore.GET('/api/v1/webhooks')).data?.data.pagination.total).toBe(1);
    },
  );

  test('createWebhook answers the loopback refusal exactly as the contract example WebhookUrlNotPublic', async ({
    api,
  }) => {
    const { error } = await api.POST('/api/v1/webhooks', { body: hook('http://127.0.0.1/hook') });
    expect(error).toEqual(asContractExample('WebhookUrlNotPublic'));
  });

  test(`createWebhook caps a store at ${WEBHOOKS_PER_STORE} webhooks with the contract's 409, and deleteWebhook frees a place`, async ({
    api,
    otherStore,
  }) => {
    const ids: string[] = [];
    for (let index = 0; index < WEBHOOKS_PER_STORE; index++) {
      ids.push(await newWebhook(api, `https://hooks.example.com/${index}`));
    }
    const over = await api.POST('/api/v1/webhooks', { body: hook('https://hooks.example.com/over') });
    expect(over.response.status).toBe(409);
    expect(over.error).toEqual(asContractExample('WebhookLimitReached'));
    const listed = await api.GET('/api/v1/webhooks', { params: { query: { limit: 100 } } });
    expect(listed.data?.data.pagination.total).toBe(WEBHOOKS_PER_STORE);
    // Another store is not affected by this one's cap.
    await newWebhook(otherStore, 'https://hooks.example.com/other');
    expect(await deletion(api.DELETE('/api/v1/webhooks/{webhookId}', at(ids[0] ?? '')))).toEqual(
      deletedAnswer(ids[0] ?? ''),
    );
    await newWebhook(api, 'https://hooks.example.com/again');
  });
});

describeEngines(
  'WEBHOOK_ALLOW_PRIVATE_NETWORKS=true',
  () => {
    test('createWebhook accepts loopback and private URLs but still refuses a user and password', async ({ api }) => {
      for (const url of ['http://127.0.0.1:3001/hook', 'http://localhost:3001/hook', 'http://10.0.0.1/hook']) {
        const created = await api.POST('/api/v1/webhooks', { body: hook(url) });
        expect(created.response.status).toBe(201);
        expect(created.data?.data.webhook.url).toBe(url);
      }
      const withUser = await api.POST('/api/v1/webhooks', { body: hook('http://user:pass@127.0.0.1:3001/hook') });
      expect(withUser.response.status).toBe(400);
      expect(detailsOf(withUser.error)).toEqual([
        { location: 'body', path: 'url', reason: 'a URL não pode conter usuário ou senha', rule: 'webhook-url-public' },
      ]);
    });
  },
  { env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } },
);
