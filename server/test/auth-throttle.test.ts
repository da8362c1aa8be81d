import createClient from 'openapi-fetch';
import { describe, expect, it } from 'vitest';
import type { components, paths } from '../../generated/openapi.ts';
import { failedAuthThrottle } from '../src/http/failed-auth-throttle.ts';
import { UNKNOWN } from './catalog.ts';
import { describeEngines, test, withoutDefaults } from './fixture.ts';

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

const LIMIT = 3;

describeEngines(
  'throttling failed authentication',
  () => {
    test(`answers the documented 429 to every operation after ${LIMIT} failures from one address`, async ({
      api,
      admin,
      server,
      tenant,
      clientWith,
    }) => {
      const issued = await admin.POST('/admin/stores/{storeId}/checkout-keys', {
        params: { path: { storeId: tenant.storeId } },
      });
      expect(issued.response.status).toBe(201);
      const checkout = createClient<paths>({
        baseUrl: server.baseUrl,
        headers: { 'x-api-key': issued.data?.data.checkoutKey.key ?? '' },
      });
      // Valid credentials pass, and do not count.
      expect((await api.GET('/api/v1/products')).response.status).toBe(200);
      const store = withoutDefaults<components['schemas']['StoreCreate']>({ name: 'Loja' });
      const guesses = [
        await clientWith({ authorization: `Bearer sf_live_${'Z'.repeat(43)}`, 'x-store-id': tenant.storeId }).GET(
          '/api/v1/products',
        ),
        await clientWith({ authorization: 'Bearer wrong-admin-token-0000' }).POST('/admin/stores', { body: store }),
        await clientWith({}).GET('/api/v1/products'),
      ];
      for (const failed of guesses) expect(failed.response.status).toBe(401);

      const blocked = [
        await api.GET('/api/v1/products'),
        await admin.POST('/admin/stores', { body: store }),
        await checkout.GET('/checkout/payment-links/{paymentLinkId}', { params: { path: { paymentLinkId: UNKNOWN } } }),
      ];
      for (const { response, error } of blocked) {
        expect(response.status).toBe(429);
        const retryAfter = Number(response.headers.get('retry-after'));
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(60);
        expect(error).toEqual({
          success: false,
          message: `Muitas requisições. Tente novamente em ${retryAfter} segundos.`,
          error: 'RATE_LIMITED',
          retryAfter,
        });
        expect(response.headers.get('ratelimit-policy')).toBe(`"failed-auth";q=${LIMIT};w=60`);
        expect(response.headers.get('ratelimit')).toBe(`"failed-auth";r=0;t=${retryAfter}`);
      }
    });
  },
  { env: { AUTH_FAILURE_LIMIT: String(LIMIT) } },
);
