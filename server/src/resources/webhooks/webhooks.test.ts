import { expect, vi } from 'vitest';
import type { components } from '../../../../generated/openapi.ts';
import { keywordReason } from '../../../../lib/reasons.ts';
import { detailPaths, detailsOf, newProduct, UNKNOWN } from '../../../test/catalog.ts';
import { deletedAnswer, deletion } from '../../../test/deletion.ts';
import { type Api, clientOf, describeEngines, malformed, test, withoutDefaults } from '../../../test/fixture.ts';
import { verified, webhookReceiver } from '../../../test/receiver.ts';
import type { EventName, WebhookCreate } from '../../../test/records.ts';
import type { ById } from '../../../test/store-scoped.ts';
import {
  expectNotFoundAlike,
  expectQueryInvalid,
  expectScopeDenied,
  outOfBoundsQueries,
} from '../../../test/store-scoped.ts';
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
} satisfies WebhookCreate;

/** The contract's comma-separated form of the `events` filter. */
const commaSeparated = { array: { style: 'form', explode: false } } as const;

/** A client whose every response is checked never to carry the webhook secret. */
const watched = (api: Api): Api => {
  api.use({
    async onResponse({ response }) {
      expect(await response.clone().text()).not.toContain(SECRET);
    },
  });
  return api;
};

const path = (webhookId: string | undefined) => ({ params: { path: { webhookId: webhookId ?? UNKNOWN } } });

/** createWebhook with the contract's defaults left out; the webhook it answers. */
const newWebhook = async (api: Api, body: Partial<WebhookCreate>) => {
  const created = await api.POST('/api/v1/webhooks', { body: withoutDefaults<WebhookCreate>(body) });
  const webhook = created.data?.data.webhook;
  if (!webhook) throw new Error(`createWebhook answered ${created.response.status}`);
  return webhook;
};

describeEngines(
  'webhooks',
  () => {
    test.override('api', async ({ server, tenant }) => watched(clientOf(server, tenant)));

    test('createWebhook (201) never shows its secret; getWebhookById reads it back', async ({ api, tenant }) => {
      const created = await api.POST('/api/v1/webhooks', { body: erp });
      expect(created.response.status).toBe(201);
      const { secret: _secret, ...shown } = erp;
      const webhook = created.data?.data.webhook;
      expect(created.data).toEqual({
        success: true,
        data: {
          webhook: {
            id: expect.any(String),
            storeId: tenant.storeId,
            ...shown,
            hasSecret: true,
            createdAt: expect.any(String),
            updatedAt: webhook?.createdAt,
          },
        },
      });
      expect(webhook).not.toHaveProperty('secret');
      const read = await api.GET('/api/v1/webhooks/{webhookId}', path(webhook?.id));
      expect(read.response.status).toBe(200);
      expect(read.data).toEqual(created.data);
      const list = await api.GET('/api/v1/webhooks', { params: { query: { limit: 100 } } });
      expect(list.data?.data.webhooks).toContainEqual(webhook);
    });

    test('createWebhook applies the defaults: active, 3 retries, 5000 ms, no secret, no headers', async ({
      api,
      tenant,
    }) => {
      const created = await api.POST('/api/v1/webhooks', {
        body: withoutDefaults<WebhookCreate>({
          name: 'Mínimo',
          url: 'https://hooks.example.com/min',
          events: ['PRODUCT_CREATED'],
        }),
      });
      expect(created.response.status).toBe(201);
      expect(created.data?.data.webhook).toEqual({
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

    test('updateWebhook changes only the sent fields; a secret can be set, rotated and removed', async ({ api }) => {
      const { secret: _secret, ...unsigned } = erp;
      const webhook = await newWebhook(api, unsigned);
      expect(webhook.hasSecret).toBe(false);
      const update = (body: components['schemas']['WebhookUpdate']) =>
        api.PATCH('/api/v1/webhooks/{webhookId}', { ...path(webhook.id), body });
      const signed = await update({ secret: SECRET, active: false });
      expect(signed.response.status).toBe(200);
      expect(signed.data?.data.webhook).toEqual({
        ...webhook,
        active: false,
        hasSecret: true,
        updatedAt: expect.any(String),
      });
      const events = await update({ events: ['ORDER_REFUNDED'] });
      expect(events.data?.data.webhook).toMatchObject({ events: ['ORDER_REFUNDED'], active: false, hasSecret: true });
      const removed = await update({ secret: null, headers: null });
      expect(removed.data?.data.webhook).toMatchObject({ hasSecret: false, headers: null });
      expect((await api.GET('/api/v1/webhooks/{webhookId}', path(webhook.id))).data?.data.webhook).toEqual(
        removed.data?.data.webhook,
      );
      expect((await update({})).response.status).toBe(400);
    });

    test.for([
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
      ['a header name with spaces', { ...erp, headers: { 'X Bad': 'v' } }, 'headers.X Bad'],
      ['a header value with CR and LF', { ...erp, headers: { 'X-Evil': 'a\r\nInjected: 1' } }, 'headers.X-Evil'],
      ['a header value with NUL', { ...erp, headers: { 'X-Evil': 'a\u0000b' } }, 'headers.X-Evil'],
      [
        'a refused value of a name with ~ (a JSON pointer escape)',
        { ...erp, headers: { 'X~1a': 'a\nb' } },
        'headers.X~1a',
      ],
      ['a header value outside ASCII', { ...erp, headers: { 'X-Cidade': 'São Paulo' } }, 'headers.X-Cidade'],
      ['Host among the headers', { ...erp, headers: { Host: 'internal.corp' } }, 'headers.Host'],
      [
        'Transfer-Encoding in another letter case',
        { ...erp, headers: { 'transfer-ENCODING': 'chunked' } },
        'headers.transfer-ENCODING',
      ],
      ['Content-Length among the headers', { ...erp, headers: { 'Content-Length': '0' } }, 'headers.Content-Length'],
      ['Connection among the headers', { ...erp, headers: { connection: 'close' } }, 'headers.connection'],
      ['hasSecret sent', { ...erp, hasSecret: true }, 'hasSecret'],
    ] as const)(
      'createWebhook rejects %s with 400 VALIDATION_ERROR naming the field',
      async ([, body, field], { api }) => {
        const { response, error } = await api.POST('/api/v1/webhooks', { body: malformed(body) });
        expect(response.status).toBe(400);
        expect(error).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' }, meta: { status: 400 } });
        expect(detailPaths(error)).toContain(field);
      },
    );

    test("createWebhook names each refused header, in the contract's words", async ({ api }) => {
      const headers = { Host: 'internal.corp', 'X Bad': 'v', 'X-Ok': 'fine' };
      const { response, error } = await api.POST('/api/v1/webhooks', { body: malformed({ ...erp, headers }) });
      expect(response.status).toBe(400);
      expect(detailsOf(error)).toHaveLength(2);
      expect(detailsOf(error)).toEqual(
        expect.arrayContaining([
          {
            location: 'body',
            path: 'headers.Host',
            reason: `${keywordReason('false schema')} (boolean schema is false)`,
          },
          {
            location: 'body',
            path: 'headers.X Bad',
            reason: `${keywordReason('additionalProperties')} (must NOT have additional properties)`,
          },
        ]),
      );
    });

    test.for([
      ['every webhook', undefined],
      ['the events filter', ['ORDER_PAID', 'ORDER_CREATED']],
    ] as const)(
      'listWebhooks pages through %s: the pages, near and far end, add up to the whole list in order',
      async ([, events], { api }) => {
        for (let index = 0; index < 7; index++) {
          await newWebhook(api, {
            name: `w${index}`,
            url: 'https://h.example.com/x',
            events: index % 2 === 0 ? ['ORDER_PAID'] : ['ORDER_CREATED', 'ORDER_PAID'],
          });
        }
        const names = async (query: { limit: number; page?: number }) =>
          (
            await api.GET('/api/v1/webhooks', {
              params: { query: { ...query, ...(events ? { events: [...events] } : {}) } },
              querySerializer: commaSeparated,
            })
          ).data?.data.webhooks.map((w) => w.name);
        const whole = (await names({ limit: 100 })) ?? [];
        expect([...whole].sort()).toEqual(['w0', 'w1', 'w2', 'w3', 'w4', 'w5', 'w6']);
        for (const limit of [1, 2, 3]) {
          const pages: string[] = [];
          for (let page = 1; page <= Math.ceil(7 / limit); page++)
            pages.push(...((await names({ limit, page })) ?? []));
          expect(pages).toEqual(whole);
        }
      },
    );

    test('listWebhooks keeps its totals right through createWebhook, updateWebhook activation changes and deleteWebhook', async ({
      api,
    }) => {
      const totals = async () => {
        const read = async (active?: boolean) =>
          (await api.GET('/api/v1/webhooks', { params: { query: active === undefined ? {} : { active } } })).data?.data
            .pagination.total;
        return { all: await read(), active: await read(true), inactive: await read(false) };
      };
      expect(await totals()).toEqual({ all: 0, active: 0, inactive: 0 });
      const make = async (name: string, active: boolean) =>
        (await newWebhook(api, { name, url: 'https://h.example.com/x', events: ['ORDER_PAID'], active })).id;
      const first = await make('a', true);
      const second = await make('b', true);
      await make('c', false);
      expect(await totals()).toEqual({ all: 3, active: 2, inactive: 1 });
      await api.PATCH('/api/v1/webhooks/{webhookId}', { ...path(first), body: { active: false } });
      await api.PATCH('/api/v1/webhooks/{webhookId}', { ...path(first), body: { name: 'a2' } });
      expect(await totals()).toEqual({ all: 3, active: 1, inactive: 2 });
      expect(await deletion(api.DELETE('/api/v1/webhooks/{webhookId}', path(second)))).toEqual(deletedAnswer(second));
      expect((await api.DELETE('/api/v1/webhooks/{webhookId}', path(second))).response.status).toBe(404);
      expect(await totals()).toEqual({ all: 2, active: 0, inactive: 2 });
    });

    test('listWebhooks filters by active and by any of the comma-separated events, newest first, with pagination', async ({
      api,
    }) => {
      const make = (name: string, events: EventName[], active = true) =>
        newWebhook(api, { name, url: 'https://hooks.example.com/x', events, active });
      await make('criado', ['ORDER_CREATED']);
      await make('pago', ['ORDER_PAID', 'ORDER_SHIPPED']);
      await make('produto', ['PRODUCT_CREATED'], false);
      await make('cliente', ['CUSTOMER_CREATED']);
      const list = (query: { active?: boolean; events?: EventName[]; limit?: number; page?: number }) =>
        api.GET('/api/v1/webhooks', { params: { query }, querySerializer: commaSeparated });
      const names = async (query: { active?: boolean; events?: EventName[] }) => {
        const { response, data } = await list(query);
        expect(response.status).toBe(200);
        return data?.data.webhooks.map((w) => w.name);
      };
      expect(await names({ events: ['ORDER_CREATED', 'ORDER_PAID'] })).toEqual(['pago', 'criado']);
      expect(await names({ events: ['ORDER_SHIPPED'] })).toEqual(['pago']);
      expect(await names({ active: false })).toEqual(['produto']);
      expect(await names({ active: true, events: ['PRODUCT_CREATED', 'CUSTOMER_CREATED'] })).toEqual(['cliente']);
      expect(await names({})).toEqual(['cliente', 'produto', 'pago', 'criado']);
      expect((await list({ limit: 3, page: 2 })).data?.data).toEqual({
        webhooks: [expect.objectContaining({ name: 'criado' })],
        pagination: { page: 2, limit: 3, total: 4, totalPages: 2 },
      });
      expect((await list({ limit: 3, page: 9 })).data?.data.webhooks).toEqual([]);
    });

    test.for([
      ...outOfBoundsQueries,
      ['active=maybe', 'active'],
      ['events=ORDER_CREATED,ORDER_LOST', 'events.1'],
      ['events=order_created', 'events.0'],
    ] as const)('listWebhooks rejects the query %s with 400 naming the parameter', async ([query, field], { api }) => {
      expectQueryInvalid(await api.GET('/api/v1/webhooks', { querySerializer: () => query }), field);
    });

    test('getWebhookById, updateWebhook and deleteWebhook answer 404 for unknown ids and another store’s webhook; deleteWebhook deletes', async ({
      api,
      otherStore,
    }) => {
      const webhook = await newWebhook(api, erp);
      const read: ById = (client, id) => client.GET('/api/v1/webhooks/{webhookId}', path(id));
      const update: ById = (client, id) =>
        client.PATCH('/api/v1/webhooks/{webhookId}', { ...path(id), body: { active: false } });
      const remove: ById = (client, id) => client.DELETE('/api/v1/webhooks/{webhookId}', path(id));
      await expectNotFoundAlike([read, update, remove], read, { api, otherStore }, webhook.id);
      const at = path(webhook.id);
      expect(
        (await otherStore.GET('/api/v1/webhooks', { params: { query: { limit: 100 } } })).data?.data.webhooks,
      ).toEqual([]);
      expect(await deletion(api.DELETE('/api/v1/webhooks/{webhookId}', at))).toEqual(deletedAnswer(webhook.id));
      expect((await api.GET('/api/v1/webhooks/{webhookId}', at)).response.status).toBe(404);
    });

    test('createWebhook and listWebhooks deny keys without the webhook scopes (403 AUTH_SCOPE_DENIED)', async ({
      withScopes,
    }) => {
      const readOnly = await withScopes(['webhooks:read']);
      expectScopeDenied([await readOnly.POST('/api/v1/webhooks', { body: erp })]);
      expect((await readOnly.GET('/api/v1/webhooks')).response.status).toBe(200);
      const unrelated = await withScopes(['products:read']);
      expectScopeDenied([await unrelated.GET('/api/v1/webhooks')]);
    });

    test('createWebhook subscribers get a signed event (createProduct), active ones only, with the custom headers', async ({
      api,
      tenant,
    }) => {
      const hooks = await webhookReceiver();
      try {
        const signed = await newWebhook(api, {
          name: 'Catálogo',
          url: hooks.url('/signed'),
          events: ['PRODUCT_CREATED'],
          secret: SECRET,
          headers: { 'X-Erp-Tenant': 'loja-maria', 'Webhook-Id': 'forged', 'X-Cidade': 'Sao Paulo\tSP' },
        });
        await newWebhook(api, { ...erp, url: hooks.url('/orders-only') });
        await newWebhook(api, {
          name: 'Pausado',
          url: hooks.url('/paused'),
          events: ['PRODUCT_CREATED'],
          active: false,
        });
        const product = await newProduct(api, 'Caneca');
        await vi.waitFor(() => expect(hooks.received).toHaveLength(1), { timeout: 5000, interval: 20 });
        const [delivery] = hooks.received;
        if (!delivery) throw new Error('no delivery');
        expect(delivery.path).toBe('/signed');
        expect(delivery.headers['content-type']).toBe('application/json');
        expect(delivery.headers['x-erp-tenant']).toBe('loja-maria');
        expect(delivery.headers['x-cidade']).toBe('Sao Paulo\tSP');
        expect(delivery.headers['webhook-id']).toMatch(/^msg_[A-Za-z0-9]+$/);
        expect(Number(delivery.headers['webhook-timestamp'])).toBeGreaterThan(1_600_000_000);
        expect(() => verified(newWebhookSecret(), delivery)).toThrow();
        expect(verified(SECRET, delivery)).toEqual({
          id: delivery.headers['webhook-id'],
          type: 'PRODUCT_CREATED',
          createdAt: expect.any(String),
          storeId: tenant.storeId,
          data: { product },
        });
        expect(signed.hasSecret).toBe(true);
        // A second event arrives after any stray delivery of the first would have: still only /signed.
        await newProduct(api, 'Caneca Azul');
        await vi.waitFor(() => expect(hooks.received).toHaveLength(2), { timeout: 5000, interval: 20 });
        expect(hooks.received.map((r) => r.path)).toEqual(['/signed', '/signed']);
      } finally {
        await hooks.close();
      }
    });

    test('createWebhook: a failed delivery is retried with the same webhook-id and a fresh signature', async ({
      api,
    }) => {
      const hooks = await webhookReceiver((_messageId, nth) => (nth <= 2 ? 500 : 204));
      try {
        await newWebhook(api, {
          name: 'Instável',
          url: hooks.url('/flaky'),
          events: ['PRODUCT_CREATED'],
          secret: SECRET,
          retryAttempts: 3,
        });
        await newProduct(api, 'Boné');
        await vi.waitFor(() => expect(hooks.received).toHaveLength(3), { timeout: 5000, interval: 20 });
        expect(new Set(hooks.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
        for (const attempt of hooks.received) expect(() => verified(SECRET, attempt)).not.toThrow();
      } finally {
        await hooks.close();
      }
    });
  },
  { env: { WEBHOOK_RETRY_SCHEDULE: '1,1,2', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } },
);
