import { describe, expect, it, vi } from 'vitest';
import type { components } from '../../generated/openapi.ts';
import { openStore } from '../src/db/database.ts';
import { createRepositories } from '../src/resources/index.ts';
import { adminAt, type Child, clientAt, spawnServer, stopServer, tenantOn } from './child-server.ts';
import { childLocation, engines } from './harness.ts';
import { newOrder } from './orders.ts';
import { verified, webhookReceiver } from './receiver.ts';

type ProductMessage = components['schemas']['WebhookDeliveryProduct'];

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const EVENTS = 12;
/** Fast retries, loopback receivers, and a delay step's minute of 1.5 s. */
const TEST_ENV = {
  WEBHOOK_RETRY_SCHEDULE: '1,1,2',
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  AUTOMATION_MINUTE_MS: '1500',
};

const messageIds = (requests: { headers: Record<string, string> }[]) =>
  new Set(requests.map((request) => request.headers['webhook-id']));

const productOf = (message: unknown) => (message as ProductMessage).data.product.id;

// Each test starts server processes whose first requests compile the contract's validators: seconds, not ms.
describe.each(engines)(
  'webhook deliveries and automation runs across restarts on %s',
  { timeout: 90_000 },
  (engine) => {
    const { env: locationEnv, location } = childLocation(engine);
    const env: Record<string, string> = { ...TEST_ENV, ...locationEnv };

    it.for([
      ['kill -9', 'SIGKILL', { code: null, signal: 'SIGKILL' }],
      ['SIGTERM', 'SIGTERM', { code: 0, signal: null }],
    ] as const)(
      'delivers every event after %s of the server with deliveries pending (createWebhook, listWebhookDeliveries)',
      async ([, signal, exit]) => {
        let failing = true;
        const receiver = await webhookReceiver(() => (failing ? 500 : 204));
        const first = await spawnServer(env);
        let second: Child | undefined;
        try {
          const { headers } = await tenantOn(first, 'Loja Durável');
          const api = clientAt(first, headers);
          const created = await api.POST('/api/v1/webhooks', {
            body: {
              name: 'ERP',
              url: receiver.url('/hook'),
              events: ['PRODUCT_CREATED'],
              secret: SECRET,
              retryAttempts: 10,
              timeout: 5000,
              active: true,
            },
          });
          expect(created.response.status).toBe(201);
          const webhookId = created.data?.data.webhook.id ?? '';
          const productIds: string[] = [];
          for (let index = 0; index < EVENTS; index++) {
            const product = await api.POST('/api/v1/products', {
              body: { name: `Produto ${signal} ${index}`, type: 'DIGITAL', price: 10, status: 'ACTIVE' },
            });
            expect(product.response.status).toBe(201);
            productIds.push(product.data?.data.product.id ?? '');
          }
          // Every event has been tried and refused at least once: all of them are pending retries.
          await vi.waitFor(() => expect(messageIds(receiver.received).size).toBe(EVENTS), { timeout: 20_000 });
          first.process.kill(signal);
          expect(await first.exited).toEqual(exit);

          failing = false;
          second = await spawnServer(env);
          await vi.waitFor(() => expect(messageIds(receiver.delivered()).size).toBe(EVENTS), {
            timeout: 30_000,
            interval: 100,
          });
          // Each arrival verifies with the standardwebhooks library, and together they are every product created.
          const arrived = receiver.delivered().map((request) => productOf(verified(SECRET, request)));
          expect(new Set(arrived)).toEqual(new Set(productIds));
          // Every attempt of an event carried the same webhook-id: the body's id.
          for (const request of receiver.received) {
            expect(JSON.parse(request.body)).toMatchObject({ id: request.headers['webhook-id'] });
          }

          // The delivery log says the same once each last attempt is recorded. An attempt cut off by kill -9 is
          // never recorded, so its number is skipped: numbers only ever grow.
          const secondApi = clientAt(second, headers);
          const deliveredLog = () =>
            secondApi.GET('/api/v1/webhooks/{webhookId}/deliveries', {
              params: { path: { webhookId }, query: { status: 'DELIVERED', limit: 100 } },
            });
          await vi.waitFor(async () => expect((await deliveredLog()).data?.data.pagination.total).toBe(EVENTS), {
            timeout: 15_000,
            interval: 200,
          });
          for (const delivery of (await deliveredLog()).data?.data.deliveries ?? []) {
            const numbers = delivery.attempts.map((attempt) => attempt.attempt);
            expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
            expect(delivery.attempts.at(-1)).toMatchObject({ statusCode: 204, error: null });
            for (const refused of delivery.attempts.slice(0, -1)) {
              expect(refused).toMatchObject({ statusCode: 500, error: 'answered 500' });
            }
          }
        } finally {
          if (second) await stopServer(second);
          await receiver.close();
        }
      },
    );

    it('resumes an automation run waiting on a delay after kill -9 (raiseStoreEvent)', async () => {
      const first = await spawnServer(env);
      let second: Child | undefined;
      const store = openStore(location);
      try {
        const { headers, storeId } = await tenantOn(first, 'Loja Durável');
        const api = clientAt(first, headers);
        const automation = await api.POST('/api/v1/automations', {
          body: {
            name: 'Lembrete de PIX',
            trigger_event: 'pix.generated',
            steps: [
              { id: 'espera', type: 'delay', minutes: 1, nextId: 'sms' },
              { id: 'sms', type: 'action', name: 'send_sms', data: { message: 'PIX {{order.id}} vence hoje' } },
            ],
          },
        });
        const automationId = automation.data?.data.automation.id ?? '';
        await api.PATCH('/api/v1/automations/{automationId}', {
          params: { path: { automationId } },
          body: { active: true },
        });
        const admin = adminAt(first);
        const orderId = (await newOrder(admin, storeId)).id;
        const raised = await admin.POST('/admin/stores/{storeId}/events', {
          params: { path: { storeId } },
          body: { name: 'pix.generated', orderId },
        });
        expect(raised.response.status).toBe(202);
        const runId = raised.data?.data.event.automationRunIds[0] ?? '';
        const { automationRuns } = createRepositories(store.db, store.engine);
        // The run has reached its delay (stored with the step it goes on from) before the process dies.
        await vi.waitFor(async () => expect((await automationRuns.findRun(storeId, runId))?.nextStep).toBe(1), {
          timeout: 10_000,
        });
        first.process.kill('SIGKILL');
        await first.exited;
        expect(await automationRuns.runOutbox(storeId, runId)).toEqual([]);

        second = await spawnServer(env);
        await vi.waitFor(async () => expect((await automationRuns.findRun(storeId, runId))?.status).toBe('completed'), {
          timeout: 20_000,
          interval: 100,
        });
        expect((await automationRuns.runOutbox(storeId, runId)).map((message) => message.content)).toEqual([
          `PIX ${orderId} vence hoje`,
        ]);
      } finally {
        if (second) await stopServer(second);
        await store.close();
      }
    });
  },
);

describe.runIf(engines.includes('postgres'))('two instances on one PostgreSQL', { timeout: 90_000 }, () => {
  const env = { ...TEST_ENV, ...childLocation('postgres').env };

  it('share the deliveries: every event delivered, no attempt claimed twice (listWebhookDeliveries)', async () => {
    // Each event is refused once and accepted on its retry, so the instances claim over several rounds.
    const receiver = await webhookReceiver((_, nth) => (nth === 1 ? 500 : 204));
    const instances = [await spawnServer(env), await spawnServer(env)];
    try {
      const [first, second] = instances as [Child, Child];
      const { headers } = await tenantOn(first, 'Loja Durável');
      const apis = [clientAt(first, headers), clientAt(second, headers)];
      const created = await apis[0]?.POST('/api/v1/webhooks', {
        body: {
          name: 'ERP',
          url: receiver.url('/hook'),
          events: ['PRODUCT_CREATED'],
          secret: SECRET,
          retryAttempts: 3,
          timeout: 5000,
          active: true,
        },
      });
      const webhookId = created?.data?.data.webhook.id ?? '';
      const events = 2 * EVENTS;
      for (let index = 0; index < events; index++) {
        const product = await apis[index % 2]?.POST('/api/v1/products', {
          body: { name: `Produto Compartilhado ${index}`, type: 'DIGITAL', price: 10, status: 'ACTIVE' },
        });
        expect(product?.response.status).toBe(201);
      }
      const deliveredLog = () =>
        clientAt(second, headers).GET('/api/v1/webhooks/{webhookId}/deliveries', {
          params: { path: { webhookId }, query: { status: 'DELIVERED', limit: 100 } },
        });
      await vi.waitFor(async () => expect((await deliveredLog()).data?.data.pagination.total).toBe(events), {
        timeout: 30_000,
        interval: 200,
      });
      for (const request of receiver.delivered()) verified(SECRET, request);
      // Exactly two requests per event, refused then accepted: no attempt was sent twice...
      expect(messageIds(receiver.delivered()).size).toBe(events);
      expect(receiver.received).toHaveLength(2 * events);
      // ...and the log records exactly those two attempts of each delivery.
      for (const delivery of (await deliveredLog()).data?.data.deliveries ?? []) {
        expect(delivery.attempts).toEqual([
          expect.objectContaining({ attempt: 1, statusCode: 500 }),
          expect.objectContaining({ attempt: 2, statusCode: 204, error: null }),
        ]);
      }
    } finally {
      for (const instance of instances) await stopServer(instance);
      await receiver.close();
    }
  });
});
