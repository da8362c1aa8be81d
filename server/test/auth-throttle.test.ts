import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { failedAuthThrottle } from '../src/http/failed-auth-throttle.ts';
import { adminHeaders, call, createTenant, engines, startServer, type Tenant, type TestServer } from './harness.ts';

describe('failedAuthThrottle', () => {
  it('blocks an address at the limit until its oldest failure is 60 s old, one address at a time', () => {
    let nowMs = 1_000_000;
    const throttle = failedAuthThrottle(3, () => nowMs);
    // [what happens, ms passed before it, action on address, blockedFor afterwards]
    const steps: [string, number, 'fail' | 'check', string, number | undefined][] = [
      ['fresh address', 0, 'check', 'a', undefined],
      ['first failure', 0, 'fail', 'a', undefined],
      ['second failure, 10 s later', 10_000, 'fail', 'a', undefined],
      ['third failure: blocked until the first is 60 s old', 0, 'fail', 'a', 50],
      ['another address is free', 0, 'check', 'b', undefined],
      ['49.5 s later: still blocked', 49_500, 'check', 'a', 1],
      ['the first failure has aged out', 500, 'check', 'a', undefined],
      ['one more failure blocks until the second is 60 s old', 0, 'fail', 'a', 10],
    ];
    for (const [name, passed, action, address, want] of steps) {
      nowMs += passed;
      if (action === 'fail') throttle.recordFailure(address);
      expect(throttle.blockedFor(address), name).toBe(want);
    }
  });
});

describe.each(engines)('throttling failed authentication on %s', (engine) => {
  const LIMIT = 3;
  let server: TestServer;
  let tenant: Tenant;
  let checkoutKey: string;

  beforeAll(async () => {
    server = await startServer({ engine, env: { AUTH_FAILURE_LIMIT: String(LIMIT) } });
    tenant = await createTenant(server);
    const key = await call(server.baseUrl, 'POST', `/admin/stores/${tenant.storeId}/checkout-keys`, {
      headers: adminHeaders(server),
      body: {},
    });
    checkoutKey = key.body.data.checkoutKey.key;
  });
  afterAll(async () => {
    await server.close();
  });

  it(`answers the documented 429 to every operation after ${LIMIT} failures from one address`, async () => {
    // Valid credentials pass, and do not count.
    expect((await call(server.baseUrl, 'GET', '/api/v1/products', { headers: tenant.headers })).status).toBe(200);
    const guesses: [string, string, Record<string, string>][] = [
      ['GET', '/api/v1/products', { authorization: `Bearer sf_live_${'Z'.repeat(43)}`, 'x-store-id': tenant.storeId }],
      ['POST', '/admin/stores', { authorization: 'Bearer wrong-admin-token-0000' }],
      ['GET', '/api/v1/products', {}],
    ];
    for (const [method, path, headers] of guesses) {
      const body = method === 'POST' ? { name: 'Loja' } : undefined;
      const failed = await call(server.baseUrl, method, path, { headers, ...(body ? { body } : {}) });
      expect(failed.status).toBe(401);
    }

    const blocked = [
      await call(server.baseUrl, 'GET', '/api/v1/products', { headers: tenant.headers }),
      await call(server.baseUrl, 'POST', '/admin/stores', { headers: adminHeaders(server), body: { name: 'Loja' } }),
      await call(server.baseUrl, 'GET', '/checkout/payment-links/00000000-0000-4000-8000-000000000000', {
        headers: { 'x-api-key': checkoutKey },
      }),
    ];
    for (const response of blocked) {
      expect(response.status).toBe(429);
      const retryAfter = Number(response.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(response.body).toEqual({
        success: false,
        message: `Muitas requisições. Tente novamente em ${retryAfter} segundos.`,
        error: 'RATE_LIMITED',
        retryAfter,
      });
      expect(response.headers.get('ratelimit-policy')).toBe(`"failed-auth";q=${LIMIT};w=60`);
      expect(response.headers.get('ratelimit')).toBe(`"failed-auth";r=0;t=${retryAfter}`);
    }
  });
});
