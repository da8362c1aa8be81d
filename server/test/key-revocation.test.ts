import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import createClient from 'openapi-fetch';
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { paths } from '../../generated/openapi.ts';
import { openStore } from '../src/db/database.ts';
import { envelopeOf } from './catalog.ts';
import { CHILD_ADMIN_TOKEN, type Child, spawnServer } from './child-server.ts';
import type { Api } from './fixture.ts';
import { engines, TEST_DATABASE_URL } from './harness.ts';

const keyRequired = envelopeOf({ AUTH_API_KEY_REQUIRED: 'Chave de API ausente, inválida, expirada ou revogada.' })(
  401,
  'AUTH_API_KEY_REQUIRED',
);
/** Well under the 5 s an instance remembers a verified key on PostgreSQL: only the announcement can be this fast. */
const HEARD_WITHIN_MS = 1_500;

async function stop(child: Child): Promise<void> {
  child.process.kill('SIGTERM');
  expect(await child.exited).toEqual({ code: 0, signal: null });
}

// Separate processes: instances in one process would share the memory of revokes and prove nothing.
describe.runIf(engines.includes('postgres'))(
  'revokeApiKey across instances on one PostgreSQL',
  { timeout: 60_000 },
  () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'sf-revoke-'));
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const env = { DATA_DIR: dataDir, DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema };

    afterAll(async () => {
      const store = openStore({ dataDir, databaseUrl: TEST_DATABASE_URL });
      await sql.raw(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).execute(store.db);
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('a key revoked through one instance is refused by another that has just verified it, within 1.5 s', async () => {
      const instances = [await spawnServer(env), await spawnServer(env)];
      try {
        const [first, second] = instances as [Child, Child];
        const admin = createClient<paths>({
          baseUrl: first.baseUrl,
          headers: { authorization: `Bearer ${CHILD_ADMIN_TOKEN}` },
        });
        const store = await admin.POST('/admin/stores', { body: { name: 'Loja Revogada', currency: 'BRL' } });
        const storeId = store.data?.data.store.id ?? '';
        const key = await admin.POST('/admin/api-keys', { body: { storeIds: [storeId] } });
        const onSecond = createClient({
          baseUrl: second.baseUrl,
          headers: { authorization: `Bearer ${key.data?.data.apiKey.key}`, 'x-store-id': storeId },
        }) as Api;
        const listProducts = () => onSecond.GET('/api/v1/products');
        // The second instance verifies the key and remembers it.
        expect((await listProducts()).response.status).toBe(200);

        const revoked = await admin.DELETE('/admin/api-keys/{apiKeyId}', {
          params: { path: { apiKeyId: key.data?.data.apiKey.id ?? '' } },
        });
        expect(revoked.response.status).toBe(204);
        await vi.waitFor(async () => expect((await listProducts()).response.status).toBe(401), {
          timeout: HEARD_WITHIN_MS,
          interval: 50,
        });
        expect((await listProducts()).error).toEqual(keyRequired);
      } finally {
        for (const instance of instances) await stop(instance);
      }
    });
  },
);
