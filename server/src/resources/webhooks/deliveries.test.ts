import { randomUUID } from 'node:crypto';
import { expect, vi } from 'vitest';
import { RECORD_ID, UNKNOWN } from '../../../test/catalog.ts';
import { describeEngines, test } from '../../../test/fixture.ts';
import { verified, webhookReceiver } from '../../../test/receiver.ts';
import { expectScopeDenied } from '../../../test/store-scoped.ts';
import { openStore } from '../../db/database.ts';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

describeEngines(
  'webhook delivery log',
  () => {
    test('listWebhookDeliveries shows a delivery FAILED after 1 + retryAttempts refusals; redeliverWebhookDelivery sends it once more with the same webhook-id', async ({
      api,
    }) => {
      let answer = 500;
      const receiver = await webhookReceiver(() => answer);
      try {
        const created = await api.POST('/api/v1/webhooks', {
          body: {
            name: 'Catálogo',
            url: receiver.url('/hook'),
            events: ['PRODUCT_CREATED'],
            secret: SECRET,
            retryAttempts: 1,
            timeout: 5000,
            active: true,
          },
        });
        const webhookId = created.data?.data.webhook.id ?? UNKNOWN;
        await api.POST('/api/v1/products', { body: { name: 'Caneca', type: 'DIGITAL', price: 10, status: 'ACTIVE' } });
        const log = (status?: 'PENDING' | 'DELIVERED' | 'FAILED') =>
          api.GET('/api/v1/webhooks/{webhookId}/deliveries', {
            params: { path: { webhookId }, query: status ? { status } : {} },
          });
        await vi.waitFor(async () => expect((await log('FAILED')).data?.data.pagination.total).toBe(1), {
          timeout: 15_000,
          interval: 100,
        });
        const [messageId] = new Set(receiver.received.map((request) => request.headers['webhook-id']));
        const failed = await log();
        expect(failed.response.status).toBe(200);
        expect(failed.data).toEqual({
          success: true,
          data: {
            deliveries: [
              {
                id: expect.stringMatching(RECORD_ID),
                webhookId,
                messageId,
                eventType: 'PRODUCT_CREATED',
                status: 'FAILED',
                attempts: [1, 2].map((attempt) => ({
                  attempt,
                  attemptedAt: expect.any(String),
                  statusCode: 500,
                  durationMs: expect.any(Number),
                  error: 'answered 500',
                })),
                nextAttemptAt: null,
                createdAt: expect.any(String),
                updatedAt: expect.any(String),
              },
            ],
            pagination: { page: 1, limit: 20, total: 1, totalPages: 1 },
          },
        });
        expect(receiver.received).toHaveLength(2);
        expect((await log('PENDING')).data?.data.deliveries).toEqual([]);

        answer = 204;
        const deliveryId = failed.data?.data.deliveries[0]?.id ?? UNKNOWN;
        const redelivered = await api.POST('/api/v1/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver', {
          params: { path: { webhookId, deliveryId } },
        });
        expect(redelivered.response.status).toBe(202);
        expect(redelivered.data?.data.delivery).toEqual({
          ...failed.data?.data.deliveries[0],
          status: 'PENDING',
          nextAttemptAt: expect.any(String),
          updatedAt: expect.any(String),
        });
        await vi.waitFor(async () => expect((await log('DELIVERED')).data?.data.pagination.total).toBe(1), {
          timeout: 15_000,
          interval: 100,
        });
        const delivered = (await log()).data?.data.deliveries[0];
        expect(delivered?.attempts.map((attempt) => attempt.statusCode)).toEqual([500, 500, 204]);
        expect(receiver.received.map((request) => request.headers['webhook-id'])).toEqual([
          messageId,
          messageId,
          messageId,
        ]);
        const last = receiver.delivered()[0];
        if (!last) throw new Error('the redelivery did not arrive');
        expect(verified(SECRET, last)).toMatchObject({ id: messageId, type: 'PRODUCT_CREATED' });
      } finally {
        await receiver.close();
      }
    });

    test("a keyed createProduct writes one delivery per subscribed webhook with its key's record, and its replay none", async ({
      api,
    }) => {
      const receiver = await webhookReceiver(() => 204);
      try {
        const hook = (name: string) =>
          api.POST('/api/v1/webhooks', {
            body: {
              name,
              url: receiver.url(`/${name}`),
              events: ['PRODUCT_CREATED'],
              retryAttempts: 0,
              timeout: 5000,
              active: true,
            },
          });
        const webhookIds = [(await hook('erp')).data?.data.webhook.id, (await hook('crm')).data?.data.webhook.id];
        const key = randomUUID();
        const create = () =>
          api.POST('/api/v1/products', {
            params: { header: { 'Idempotency-Key': key } },
            body: { name: 'Caneca', type: 'DIGITAL', price: 10, status: 'ACTIVE' },
          });
        const first = await create();
        const replay = await create();
        expect(first.response.status).toBe(201);
        expect(replay.response.status).toBe(201);
        expect(replay.response.headers.get('idempotent-replayed')).toBe('true');
        expect(replay.data).toEqual(first.data);
        const logOf = (webhookId = UNKNOWN) =>
          api.GET('/api/v1/webhooks/{webhookId}/deliveries', { params: { path: { webhookId } } });
        for (const webhookId of webhookIds) {
          await vi.waitFor(
            async () => expect((await logOf(webhookId)).data?.data.deliveries[0]?.status).toBe('DELIVERED'),
            {
              timeout: 15_000,
              interval: 100,
            },
          );
          const log = (await logOf(webhookId)).data?.data;
          expect(log?.pagination.total).toBe(1);
          expect(log?.deliveries[0]).toMatchObject({ webhookId, eventType: 'PRODUCT_CREATED' });
        }
        expect(receiver.received.map((request) => request.path).sort()).toEqual(['/crm', '/erp']);
        const [message, ...more] = new Set(receiver.received.map((request) => request.headers['webhook-id']));
        expect(more).toEqual([]);
        const body = JSON.parse(receiver.received[0]?.body ?? 'null') as { id: string; data: unknown };
        expect(body).toMatchObject({
          id: message,
          type: 'PRODUCT_CREATED',
          data: { product: first.data?.data.product },
        });
      } finally {
        await receiver.close();
      }
    });

    test('a stored custom header that HTTP cannot carry fails its attempt, naming the header and not its value, and the delivery ends FAILED', async ({
      api,
      server,
    }) => {
      const receiver = await webhookReceiver();
      try {
        const created = await api.POST('/api/v1/webhooks', {
          body: {
            name: 'ERP',
            url: receiver.url('/hook'),
            events: ['PRODUCT_CREATED'],
            retryAttempts: 0,
            timeout: 5000,
            active: true,
          },
        });
        const webhookId = created.data?.data.webhook.id ?? UNKNOWN;
        // The contract refuses such a value now; a webhook stored before it did may hold one.
        const store = openStore(server.location);
        try {
          await store.db
            .updateTable('webhooks')
            .set({ headers: JSON.stringify({ 'X-Evil': 'a\r\nInjected: 1' }) })
            .where('id', '=', webhookId)
            .execute();
        } finally {
          await store.close();
        }
        await api.POST('/api/v1/products', { body: { name: 'Caneca', type: 'DIGITAL', price: 10, status: 'ACTIVE' } });
        const log = () => api.GET('/api/v1/webhooks/{webhookId}/deliveries', { params: { path: { webhookId } } });
        await vi.waitFor(async () => expect((await log()).data?.data.deliveries[0]?.status).toBe('FAILED'), {
          timeout: 15_000,
          interval: 100,
        });
        expect((await log()).data?.data.deliveries[0]?.attempts).toEqual([
          {
            attempt: 1,
            attemptedAt: expect.any(String),
            statusCode: null,
            durationMs: expect.any(Number),
            error: 'refused: custom header X-Evil is not a valid HTTP header',
          },
        ]);
        expect(receiver.received).toEqual([]);
      } finally {
        await receiver.close();
      }
    });

    test('listWebhookDeliveries and redeliverWebhookDelivery answer 404 for unknown and foreign ids and need the webhook scopes', async ({
      api,
      otherStore,
      withScopes,
    }) => {
      const created = await api.POST('/api/v1/webhooks', {
        body: {
          name: 'ERP',
          url: 'https://erp.example.com/hook',
          events: ['ORDER_PAID'],
          retryAttempts: 3,
          timeout: 5000,
          active: true,
        },
      });
      const webhookId = created.data?.data.webhook.id ?? UNKNOWN;
      const empty = await api.GET('/api/v1/webhooks/{webhookId}/deliveries', { params: { path: { webhookId } } });
      expect(empty.data).toEqual({
        success: true,
        data: { deliveries: [], pagination: { page: 1, limit: 20, total: 0, totalPages: 0 } },
      });
      for (const [client, id] of [
        [api, UNKNOWN],
        [otherStore, webhookId],
      ] as const) {
        const list = await client.GET('/api/v1/webhooks/{webhookId}/deliveries', {
          params: { path: { webhookId: id } },
        });
        expect(list.response.status).toBe(404);
        expect(list.error).toMatchObject({
          success: false,
          error: { code: 'RESOURCE_NOT_FOUND' },
          meta: { status: 404 },
        });
      }
      const redeliver = await api.POST('/api/v1/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver', {
        params: { path: { webhookId, deliveryId: UNKNOWN } },
      });
      expect(redeliver.response.status).toBe(404);
      expect(redeliver.error).toMatchObject({ error: { code: 'RESOURCE_NOT_FOUND' } });

      const readOnly = await withScopes(['webhooks:read']);
      expectScopeDenied([
        await readOnly.POST('/api/v1/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver', {
          params: { path: { webhookId, deliveryId: UNKNOWN } },
        }),
      ]);
      const unrelated = await withScopes(['products:read']);
      const list = await unrelated.GET('/api/v1/webhooks/{webhookId}/deliveries', { params: { path: { webhookId } } });
      expect(list.response.status).toBe(403);
    });
  },
  { env: { WEBHOOK_RETRY_SCHEDULE: '1', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } },
);
