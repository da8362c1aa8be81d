import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../generated/openapi.ts';
import { WEBHOOKS_PER_STORE } from '../src/resources/webhooks/handlers.ts';
import { type Api, clientOf, engines, withoutDefaults } from './fixture.ts';
import { createTenant, startServer, type TestServer } from './harness.ts';

type WebhookCreate = components['schemas']['WebhookCreate'];
const hook = (index: number) =>
  withoutDefaults<WebhookCreate>({ name: 'ERP', url: `https://hooks.example.com/${index}`, events: ['ORDER_PAID'] });

const ALREADY = WEBHOOKS_PER_STORE - 5;
const AT_ONCE = 12;

/** `AT_ONCE` simultaneous createWebhook on a store already holding `ALREADY`, spread over the clients given. */
async function raceToTheCap(clients: Api[]) {
  const [first] = clients;
  if (!first) throw new Error('no client');
  for (let index = 0; index < ALREADY; index++) {
    expect((await first.POST('/api/v1/webhooks', { body: hook(index) })).response.status).toBe(201);
  }
  const answers = await Promise.all(
    Array.from({ length: AT_ONCE }, (_, index) =>
      (clients[index % clients.length] ?? first).POST('/api/v1/webhooks', { body: hook(ALREADY + index) }),
    ),
  );
  const listed = await first.GET('/api/v1/webhooks', { params: { query: { limit: 100 } } });
  return {
    statuses: answers.map(({ response }) => response.status).sort(),
    codes: answers.flatMap(({ error }) =>
      error ? [typeof error.error === 'string' ? error.error : error.error.code] : [],
    ),
    total: listed.data?.data.pagination.total,
    listed: listed.data?.data.webhooks.length,
  };
}

const expected = {
  statuses: [...Array(5).fill(201), ...Array(AT_ONCE - 5).fill(409)],
  codes: Array(AT_ONCE - 5).fill('RESOURCE_LIMIT_REACHED'),
  total: WEBHOOKS_PER_STORE,
  listed: WEBHOOKS_PER_STORE,
};

for (const engine of engines) {
  describe(`createWebhook's cap under simultaneous creates on ${engine}`, () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startServer({ engine });
    });
    afterAll(() => server.close());

    it(`admits exactly up to ${WEBHOOKS_PER_STORE} webhooks when ${AT_ONCE} creates arrive at once, and 409s the rest`, async () => {
      const tenant = await createTenant(server);
      expect(await raceToTheCap([clientOf(server, tenant)])).toEqual(expected);
    });
  });
}

describe.runIf(engines.includes('postgres'))("createWebhook's cap across two instances on postgres", () => {
  it(`admits exactly up to ${WEBHOOKS_PER_STORE} webhooks when creates arrive at once at two instances sharing one database`, async () => {
    const first = await startServer({ engine: 'postgres' });
    const second = await startServer({ engine: 'postgres', location: first.location });
    try {
      const tenant = await createTenant(first);
      expect(await raceToTheCap([clientOf(first, tenant), clientOf(second, tenant)])).toEqual(expected);
    } finally {
      await second.close({ keepData: true });
      await first.close();
    }
  });
});
