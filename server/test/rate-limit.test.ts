import { setTimeout as sleep } from 'node:timers/promises';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components, paths } from '../../generated/openapi.ts';
import type { Engine } from '../src/db/database.ts';
import { memoryRateLimiter, type RateLimiter, sqlRateLimiter } from '../src/http/rate-limiter.ts';
import { clientOf, withoutDefaults } from './fixture.ts';
import {
  adminHeaders,
  createTenant,
  engines,
  freshStore,
  startServer,
  type Tenant,
  type TestServer,
} from './harness.ts';

const MAX = 3;
const WINDOW_SECONDS = 2;
const env = { RATE_LIMIT_MAX: String(MAX), RATE_LIMIT_WINDOW_SECONDS: String(WINDOW_SECONDS) };
const UNKNOWN_PRODUCT = '00000000-0000-4000-8000-000000000000';
const product = withoutDefaults<components['schemas']['ProductCreate']>;

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

/** The 429 body and headers of a request over the limit; returns its Retry-After. */
function expectRateLimited({ response, error }: { response: Response; error?: unknown }): number {
  expect(response.status).toBe(429);
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(response.headers.get('retry-after')).toBe(String(retryAfter));
  expect(error).toEqual({
    success: false,
    message: expect.stringMatching(/^Muitas requisições/),
    error: 'RATE_LIMITED',
    retryAfter,
  });
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
  expectRateLimitHeaders(response, 0);
  return retryAfter;
}

/** listProducts as the tenant, on the given server, with extra headers (another store id, ...). */
const list = (who: Tenant, on: TestServer, headers: Record<string, string> = {}) =>
  clientOf(on, { ...who, headers: { ...who.headers, ...headers } }).GET('/api/v1/products');

/**
 * A server with the test's limits for the suite. The validator compiles an operation's schemas on its first request
 * (hundreds of ms): a warm-up does that before the tests, so that their bursts stay inside one window.
 */
function limitedServer(engine: Engine): () => TestServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startServer({ engine, env });
    const warmUp = clientOf(server, await createTenant(server));
    await warmUp.POST('/api/v1/products', { body: product({ name: 'Aquecimento', type: 'DIGITAL', price: 1 }) });
    await warmUp.GET('/api/v1/products');
    await warmUp.GET('/api/v1/products/{productId}', { params: { path: { productId: UNKNOWN_PRODUCT } } });
  }, 30_000);
  afterAll(() => server?.close());
  return () => {
    if (!server) throw new Error('the server did not start');
    return server;
  };
}

// Each test waits for a window boundary (up to 2 s), some also for Retry-After.
describe.each(engines)('rate limiting on %s', { timeout: 15_000 }, (engine) => {
  const server = limitedServer(engine);

  it('answers the request over the limit with the 429 body and Retry-After, then lets it pass after waiting', async () => {
    const tenant = await createTenant(server());
    await startOfNextWindow();
    const allowed = [await list(tenant, server()), await list(tenant, server()), await list(tenant, server())];
    allowed.forEach(({ response }, index) => {
      expect(response.status).toBe(200);
      expectRateLimitHeaders(response, MAX - 1 - index);
    });
    const retryAfter = expectRateLimited(await list(tenant, server()));

    await sleep(retryAfter * 1000);
    const after = await list(tenant, server());
    expect(after.response.status).toBe(200);
    expectRateLimitHeaders(after.response, MAX - 1);
  });

  it('counts every v1 answer after the key check, and carries the headers on each', async () => {
    const tenant = await createTenant(server());
    const other = await createTenant(server());
    const api = clientOf(server(), tenant);
    await startOfNextWindow();
    const responses = [
      await api.POST('/api/v1/products', { body: product({ name: 'Caneca', type: 'DIGITAL', price: 10 }) }),
      await list(tenant, server(), { 'x-store-id': other.storeId }),
      await api.GET('/api/v1/products/{productId}', { params: { path: { productId: UNKNOWN_PRODUCT } } }),
    ].map(({ response }) => response);
    expect(responses.map((r) => r.status)).toEqual([201, 403, 404]);
    responses.forEach((response, index) => {
      expectRateLimitHeaders(response, MAX - 1 - index);
    });
    // Step 2 (rate limit) comes before step 3 (X-Store-Id format) in the order of checks.
    expectRateLimited(await list(tenant, server(), { 'x-store-id': 'not-a-uuid' }));
    // Step 1 comes first: an unknown key is 401, and is not counted against anyone.
    const unknown = await list(tenant, server(), { authorization: `Bearer sf_live_${'B'.repeat(43)}` });
    expect(unknown.response.status).toBe(401);
    expect(unknown.response.headers.get('ratelimit')).toBeNull();
  });

  it('limits each key on its own: another key, even on the same store, still passes', async () => {
    const tenant = await createTenant(server());
    const admin = createClient<paths>({ baseUrl: server().baseUrl, headers: adminHeaders(server()) });
    const second = await admin.POST('/admin/api-keys', { body: { storeIds: [tenant.storeId] } });
    const secondKey = second.data?.data.apiKey.key ?? '';
    const sameStore: Tenant = {
      ...tenant,
      apiKey: secondKey,
      headers: { ...tenant.headers, authorization: `Bearer ${secondKey}` },
    };
    const elsewhere = await createTenant(server());
    await startOfNextWindow();
    for (let i = 0; i < MAX; i += 1) expect((await list(tenant, server())).response.status).toBe(200);
    expectRateLimited(await list(tenant, server()));
    const passing = await list(sameStore, server());
    expect(passing.response.status).toBe(200);
    expectRateLimitHeaders(passing.response, MAX - 1);
    expect((await list(elsewhere, server())).response.status).toBe(200);
  });
});

describe.runIf(engines.includes('postgres'))('rate limiting across instances on postgres', () => {
  const server = limitedServer('postgres');

  it('admits no more than the limit across two instances sharing one database', { timeout: 15_000 }, async () => {
    const second = await startServer({ engine: 'postgres', env, location: server().location });
    try {
      const tenant = await createTenant(server());
      // A new instance compiles its route lookup on its first request: done here, outside the window counted.
      await list(await createTenant(second), second);
      await startOfNextWindow();
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, index) => list(tenant, index % 2 === 0 ? server() : second)),
      );
      const passed = responses.filter(({ response }) => response.status >= 200 && response.status < 300);
      expect(passed).toHaveLength(MAX);
      const refused = responses.filter(({ response }) => response.status === 429);
      for (const answer of refused) expectRateLimited(answer);
      expect(refused).toHaveLength(10 - MAX);
    } finally {
      await second.close({ keepData: true });
    }
  });

  it('admits at most the limit in every window under continuous load from two instances on one database', async () => {
    const limit = 5;
    const fast = { RATE_LIMIT_MAX: String(limit), RATE_LIMIT_WINDOW_SECONDS: '1' };
    const first = await startServer({ engine: 'postgres', env: fast });
    const second = await startServer({ engine: 'postgres', env: fast, location: first.location });
    try {
      const tenant = await createTenant(first);
      for (const instance of [first, second]) await list(tenant, instance); // compiles the validator
      const admitted = new Map<number, number>();
      let refused = 0;
      const until = Date.now() + 5_000;
      // Six clients, three per instance, each sending its next request 0–100 ms after the last is answered: far
      // more than the limit, yet not always in flight, so that a window's admissions are not all requests sent
      // in the window before (those are not counted: which window took them is unknown).
      const client = async (instance: TestServer) => {
        while (Date.now() < until) {
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 100));
          const sentIn = Math.floor(Date.now() / 1000);
          const { response } = await list(tenant, instance);
          const answeredIn = Math.floor(Date.now() / 1000);
          if (response.status === 429) refused += 1;
          else if (sentIn === answeredIn) admitted.set(sentIn, (admitted.get(sentIn) ?? 0) + 1);
          else expect(response.status).toBe(200); // across a boundary: which window counted it is unknown
        }
      };
      await Promise.all([first, second, first, second, first, second].map(client));
      expect(refused).toBeGreaterThan(0);
      expect(admitted.size).toBeGreaterThanOrEqual(2);
      for (const [, count] of admitted) expect(count).toBeLessThanOrEqual(limit);
    } finally {
      await second.close({ keepData: true });
      await first.close();
    }
  }, 30_000);
});

describe.each(engines)('the rate limiter on %s', (engine) => {
  it('never moves a window backwards: a late hit from the previous window counts in the current one', async () => {
    const store = engine === 'postgres' ? await freshStore(engine) : undefined;
    let clock = 1_800_000_000_000;
    const now = () => clock;
    const limiter: RateLimiter = store
      ? sqlRateLimiter(store.store, { max: MAX, windowSeconds: WINDOW_SECONDS }, now)
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
});
