import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/db/database.ts';
import { memoryRateLimiter, type RateLimiter, sqlRateLimiter } from '../src/http/rate-limiter.ts';
import {
  adminHeaders,
  call,
  createTenant,
  engines,
  type Response,
  startServer,
  type Tenant,
  type TestServer,
} from './harness.ts';

const MAX = 3;
const WINDOW_SECONDS = 2;
const env = { RATE_LIMIT_MAX: String(MAX), RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS) };

/**
 * Windows are fixed and aligned to the clock; waiting for the start of the next one keeps a burst of requests
 * inside a single window, so the counts below do not depend on when the test happens to run.
 */
async function startOfNextWindow(): Promise<void> {
  const ms = WINDOW_SECONDS * 1000;
  await sleep(ms - (Date.now() % ms) + 50);
}

function expectRateLimitHeaders(response: Response, remaining?: number): void {
  expect(response.headers.get('ratelimit-policy')).toBe(`"default";q=${MAX};w=${WINDOW_SECONDS}`);
  expect(response.headers.get('ratelimit')).toMatch(
    remaining === undefined ? /^"default";r=\d+;t=\d+$/ : new RegExp(`^"default";r=${remaining};t=[12]$`),
  );
}

function expectRateLimited(response: Response<{ retryAfter: number }>): number {
  expect(response.status).toBe(429);
  const retryAfter = response.body.retryAfter;
  expect(response.body).toEqual({
    success: false,
    message: expect.stringMatching(/^Muitas requisições/),
    error: 'RATE_LIMITED',
    retryAfter: expect.any(Number),
  });
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
  expect(response.headers.get('retry-after')).toBe(String(retryAfter));
  expectRateLimitHeaders(response, 0);
  return retryAfter;
}

// Each test waits for a window boundary (up to 2 s), some also for Retry-After.
describe.each(engines)('rate limiting on %s', { timeout: 15_000 }, (engine) => {
  let server: TestServer;
  const list = (who: Tenant, on: TestServer = server, headers: Record<string, string> = {}) =>
    call(on.baseUrl, 'GET', '/api/v1/products', { headers: { ...who.headers, ...headers } });

  beforeAll(async () => {
    server = await startServer({ engine, env });
    // The validator compiles an operation's schemas on its first request (hundreds of ms): do that here, so that
    // the bursts below stay inside one window.
    const warmUp = await createTenant(server);
    await call(server.baseUrl, 'POST', '/api/v1/products', {
      headers: warmUp.headers,
      body: { name: 'Aquecimento', type: 'DIGITAL', price: 1 },
    });
    await list(warmUp);
    await call(server.baseUrl, 'GET', '/api/v1/products/00000000-0000-4000-8000-000000000000', {
      headers: warmUp.headers,
    });
  }, 30_000);
  afterAll(() => server.close());

  it('answers the request over the limit with the 429 body and Retry-After, then lets it pass after waiting', async () => {
    const tenant = await createTenant(server);
    await startOfNextWindow();
    const allowed = [await list(tenant), await list(tenant), await list(tenant)];
    allowed.forEach((response, index) => {
      expect(response.status).toBe(200);
      expectRateLimitHeaders(response, MAX - 1 - index);
    });
    const retryAfter = expectRateLimited(await list(tenant));

    await sleep(retryAfter * 1000);
    const after = await list(tenant);
    expect(after.status).toBe(200);
    expectRateLimitHeaders(after, MAX - 1);
  });

  it('counts every v1 answer after the key check, and carries the headers on each', async () => {
    const tenant = await createTenant(server);
    const other = await createTenant(server);
    await startOfNextWindow();
    const responses = [
      await call(server.baseUrl, 'POST', '/api/v1/products', {
        headers: tenant.headers,
        body: { name: 'Caneca', type: 'DIGITAL', price: 10 },
      }),
      await list(tenant, server, { 'x-store-id': other.storeId }),
      await call(server.baseUrl, 'GET', '/api/v1/products/00000000-0000-4000-8000-000000000000', {
        headers: tenant.headers,
      }),
    ];
    expect(responses.map((r) => r.status)).toEqual([201, 403, 404]);
    responses.forEach((response, index) => {
      expectRateLimitHeaders(response, MAX - 1 - index);
    });
    // Step 2 (rate limit) comes before step 3 (X-Store-Id format) in the order of checks.
    expectRateLimited(await list(tenant, server, { 'x-store-id': 'not-a-uuid' }));
    // Step 1 comes first: an unknown key is 401, and is not counted against anyone.
    const unknown = await call(server.baseUrl, 'GET', '/api/v1/products', {
      headers: { authorization: `Bearer sf_live_${'B'.repeat(43)}`, 'x-store-id': tenant.storeId },
    });
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('ratelimit')).toBeNull();
  });

  it('limits each key on its own: another key, even on the same store, still passes', async () => {
    const tenant = await createTenant(server);
    const second = await call(server.baseUrl, 'POST', '/admin/api-keys', {
      headers: adminHeaders(server),
      body: { storeIds: [tenant.storeId] },
    });
    const sameStore: Tenant = {
      ...tenant,
      apiKey: second.body.data.apiKey.key,
      headers: { ...tenant.headers, authorization: `Bearer ${second.body.data.apiKey.key}` },
    };
    const elsewhere = await createTenant(server);
    await startOfNextWindow();
    for (let i = 0; i < MAX; i += 1) expect((await list(tenant)).status).toBe(200);
    expectRateLimited(await list(tenant));
    const passing = await list(sameStore);
    expect(passing.status).toBe(200);
    expectRateLimitHeaders(passing, MAX - 1);
    expect((await list(elsewhere)).status).toBe(200);
  });

  it.runIf(engine === 'postgres')(
    'admits no more than the limit across two instances sharing one database',
    async () => {
      const second = await startServer({ engine, env, location: server.location });
      try {
        const tenant = await createTenant(server);
        // A new instance compiles its route lookup on its first request: done here, outside the window counted.
        await list(await createTenant(second), second);
        await startOfNextWindow();
        const responses = await Promise.all(
          Array.from({ length: 10 }, (_, index) => list(tenant, index % 2 === 0 ? server : second)),
        );
        const passed = responses.filter((r) => r.status >= 200 && r.status < 300);
        expect(passed).toHaveLength(MAX);
        for (const response of responses.filter((r) => r.status === 429)) expectRateLimited(response);
        expect(responses.filter((r) => r.status === 429)).toHaveLength(10 - MAX);
      } finally {
        await second.close({ keepData: true });
      }
    },
  );

  it('never moves a window backwards: a late hit from the previous window counts in the current one', async () => {
    const store = engine === 'postgres' ? openStore(server.location) : undefined;
    let clock = 1_800_000_000_000;
    const now = () => clock;
    const limiter: RateLimiter = store
      ? sqlRateLimiter(store, { max: MAX, windowSeconds: WINDOW_SECONDS }, now)
      : memoryRateLimiter({ max: MAX, windowSeconds: WINDOW_SECONDS }, now);
    const bucket = `late-${engine}-${Math.random()}`;
    try {
      for (let i = 0; i < MAX; i += 1) expect((await limiter.hit(bucket)).allowed).toBe(true);
      const current = clock;
      clock = current - 1; // read the clock just before this window began
      expect(await limiter.hit(bucket)).toEqual({
        allowed: false,
        limit: MAX,
        remaining: 0,
        resetSeconds: WINDOW_SECONDS,
        windowSeconds: WINDOW_SECONDS,
      });
      clock = current;
      expect((await limiter.hit(bucket)).allowed).toBe(false);
      clock = current + WINDOW_SECONDS * 1000;
      expect(await limiter.hit(bucket)).toMatchObject({ allowed: true, remaining: MAX - 1 });
    } finally {
      await store?.close();
    }
  });

  it.runIf(engine === 'postgres')(
    'admits at most the limit in every window under continuous load from two instances on one database',
    async () => {
      const limit = 5;
      const fast = { RATE_LIMIT_MAX: String(limit), RATE_LIMIT_WINDOW_SECONDS: '1' };
      const first = await startServer({ engine, env: fast });
      const second = await startServer({ engine, env: fast, location: first.location });
      try {
        const tenant = await createTenant(first);
        for (const instance of [first, second]) await list(tenant, instance); // compiles the validator
        const admitted = new Map<number, number>();
        let refused = 0;
        const until = Date.now() + 4_000;
        // Six clients, three per instance, each sending its next request as soon as the last is answered.
        const client = async (instance: TestServer) => {
          while (Date.now() < until) {
            const sentIn = Math.floor(Date.now() / 1000);
            const response = await list(tenant, instance);
            const answeredIn = Math.floor(Date.now() / 1000);
            if (response.status === 429) refused += 1;
            else if (sentIn === answeredIn) admitted.set(sentIn, (admitted.get(sentIn) ?? 0) + 1);
            else expect(response.status).toBe(200); // across a boundary: which window counted it is unknown
          }
        };
        await Promise.all([first, second, first, second, first, second].map(client));
        expect(refused).toBeGreaterThan(0);
        expect(admitted.size).toBeGreaterThanOrEqual(3);
        for (const [, count] of admitted) expect(count).toBeLessThanOrEqual(limit);
      } finally {
        await second.close({ keepData: true });
        await first.close();
      }
    },
    30_000,
  );
});
