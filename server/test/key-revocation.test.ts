import { describe, expect, it, vi } from 'vitest';
import { envelopeOf } from './catalog.ts';
import { adminAt, type Child, clientAt, spawnServer, stopServer, tenantOn } from './child-server.ts';
import { deletedAnswer, deletion } from './deletion.ts';
import { childLocation, engines } from './harness.ts';

const keyRequired = envelopeOf({ AUTH_API_KEY_REQUIRED: 'Chave de API ausente, inválida, expirada ou revogada.' })(
  401,
  'AUTH_API_KEY_REQUIRED',
);
/** Well under the 5 s an instance remembers a verified key on PostgreSQL: only the announcement can be this fast. */
const HEARD_WITHIN_MS = 1_500;

// Separate processes: instances in one process would share the memory of revokes and prove nothing.
describe.runIf(engines.includes('postgres'))(
  'revokeApiKey across instances on one PostgreSQL',
  { timeout: 60_000 },
  () => {
    const { env } = childLocation('postgres');

    it('a key revoked through one instance is refused by another that has just verified it, within 1.5 s', async () => {
      const instances = [await spawnServer(env), await spawnServer(env)];
      try {
        const [first, second] = instances as [Child, Child];
        const tenant = await tenantOn(first, 'Loja Revogada');
        const onSecond = clientAt(second, tenant.headers);
        const listProducts = () => onSecond.GET('/api/v1/products');
        // The second instance verifies the key and remembers it.
        expect((await listProducts()).response.status).toBe(200);

        const admin = adminAt(first);
        const revoked = admin.DELETE('/admin/api-keys/{apiKeyId}', { params: { path: { apiKeyId: tenant.apiKeyId } } });
        expect(await deletion(revoked)).toEqual(deletedAnswer(tenant.apiKeyId));
        await vi.waitFor(async () => expect((await listProducts()).response.status).toBe(401), {
          timeout: HEARD_WITHIN_MS,
          interval: 50,
        });
        expect((await listProducts()).error).toEqual(keyRequired);
      } finally {
        for (const instance of instances) await stopServer(instance);
      }
    });
  },
);
