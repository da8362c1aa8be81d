import { describe, expect, it, vi } from 'vitest';
import { type Child, clientAt, spawnServer, stopServer, tenantOn } from './child-server.ts';
import { childLocation, engines } from './harness.ts';

const LIMIT = 4;
/** An announcement takes milliseconds; this leaves room for a loaded machine. */
const HEARD_WITHIN_MS = 1_500;

// Separate processes: instances in one process would prove nothing about what reaches another.
describe.runIf(engines.includes('postgres'))(
  'failed authentication across instances on one PostgreSQL',
  { timeout: 60_000 },
  () => {
    const { env } = childLocation('postgres');
    const other = childLocation('postgres');

    it(`blocks an address on every instance once its failures on all of them reach AUTH_FAILURE_LIMIT (${LIMIT})`, async () => {
      const limited = { AUTH_FAILURE_LIMIT: String(LIMIT) };
      const instances = [
        await spawnServer({ ...env, ...limited }),
        await spawnServer({ ...env, ...limited }),
        // Another deployment on the same database, in a schema of its own: it counts nothing of the others'.
        await spawnServer({ ...other.env, ...limited }),
      ];
      try {
        const [first, second, elsewhere] = instances as [Child, Child, Child];
        const tenant = await tenantOn(first, 'Loja Vigiada');
        const tenantElsewhere = await tenantOn(elsewhere, 'Loja Vizinha');
        const guess = { authorization: `Bearer sf_live_${'Z'.repeat(43)}`, 'x-store-id': tenant.storeId };
        // Half the limit on each instance: neither reaches it alone.
        for (const instance of [first, second, first, second]) {
          expect((await clientAt(instance, guess).GET('/api/v1/products')).response.status).toBe(401);
        }
        for (const instance of [first, second]) {
          const valid = clientAt(instance, tenant.headers);
          await vi.waitFor(async () => expect((await valid.GET('/api/v1/products')).response.status).toBe(429), {
            timeout: HEARD_WITHIN_MS,
            interval: 50,
          });
          const { response } = await valid.GET('/api/v1/products');
          expect(response.headers.get('ratelimit-policy')).toBe(`"failed-auth";q=${LIMIT};w=60`);
        }
        expect((await clientAt(elsewhere, tenantElsewhere.headers).GET('/api/v1/products')).response.status).toBe(200);
      } finally {
        for (const instance of instances) await stopServer(instance);
      }
    });
  },
);
