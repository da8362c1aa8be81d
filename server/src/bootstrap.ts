import { randomBytes, randomUUID } from 'node:crypto';
import { allScopes } from './contract.ts';
import { now } from './domain/clock.ts';
import { API_KEY_PREFIX, hashSecret, newSecret } from './domain/secrets.ts';
import type { Repositories } from './resources/index.ts';

export function generateAdminToken(): string {
  return `sf_admin_${randomBytes(32).toString('base64url')}`;
}

export interface DemoCredentials {
  storeId: string;
  apiKey: string;
}

/** A demo store and a full-scope key, created only when the store holds no store at all (a first start). */
export async function createDemoStoreIfEmpty(repositories: Repositories): Promise<DemoCredentials | undefined> {
  if ((await repositories.stores.count()) > 0) return undefined;
  const at = now();
  const store = await repositories.stores.createStore({
    id: randomUUID(),
    name: 'Loja Demo',
    currency: 'BRL',
    createdAt: at,
  });
  const apiKey = newSecret(API_KEY_PREFIX);
  await repositories.credentials.createApiKey({
    id: randomUUID(),
    name: 'Demo (all scopes)',
    storeIds: [store.id],
    scopes: allScopes,
    expiresAt: null,
    revokedAt: null,
    createdAt: at,
    keyHash: hashSecret(apiKey),
  });
  return { storeId: store.id, apiKey };
}

/** The one-time banner on stdout (not the log): secrets are shown here once and never logged. */
export function banner(port: number, adminToken: string | undefined, demo: DemoCredentials | undefined): string {
  const base = `http://127.0.0.1:${port}`;
  const lines = [`Storefront reference server listening on ${base}`];
  if (adminToken) lines.push('', `Admin token (generated for this run; set ADMIN_TOKEN to choose one): ${adminToken}`);
  if (demo) {
    lines.push(
      '',
      'Demo store created (first start):',
      `  X-Store-Id: ${demo.storeId}`,
      `  API key:    ${demo.apiKey}`,
      '',
      'Try it:',
      `  curl -s -X POST ${base}/api/v1/products \\`,
      `    -H 'Authorization: Bearer ${demo.apiKey}' -H 'X-Store-Id: ${demo.storeId}' \\`,
      `    -H 'Content-Type: application/json' \\`,
      `    -d '{"name":"Camiseta Básica","type":"DIGITAL","price":49.9}'`,
    );
  }
  return `${lines.join('\n')}\n`;
}
