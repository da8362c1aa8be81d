import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { revokesHeard } from '../src/resources/credentials/key-revocations.ts';
import { credentialsRepository } from '../src/resources/credentials/repository.ts';

const LIFETIME_MS = 5_000;
const key = {
  id: '6a1f2c3d-0000-4000-8000-000000000001',
  keyHash: 'hash-of-a-key',
  name: null,
  storeIds: ['6a1f2c3d-0000-4000-8000-0000000000aa'],
  scopes: ['products:read'],
  expiresAt: null,
  revokedAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
};

// Two repositories on one store stand for two instances sharing a database.
describe('remembered API keys', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sf-keys-'));
  const store = openStore({ dataDir });
  afterAll(async () => {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('believes a key revoked elsewhere until its lifetime ends, then reads the revoke', async () => {
    await migrate(store);
    let clock = 0;
    const instance = credentialsRepository(store.db, { rememberKeysMs: LIFETIME_MS, now: () => clock });
    await instance.createApiKey(key);
    expect((await instance.findApiKeyByHash(key.keyHash))?.revokedAt).toBeNull();

    // Written straight to the store, as another process would: this one has no way to hear of it.
    await store.db
      .updateTable('api_keys')
      .set({ revoked_at: '2026-01-01T00:00:01.000Z' })
      .where('id', '=', key.id)
      .execute();
    clock = LIFETIME_MS - 1;
    expect((await instance.findApiKeyByHash(key.keyHash))?.revokedAt).toBeNull();
    clock = LIFETIME_MS;
    expect((await instance.findApiKeyByHash(key.keyHash))?.revokedAt).toBe('2026-01-01T00:00:01.000Z');
  });

  it('forgets every remembered key at once when a key is revoked through any repository of the process', async () => {
    const other = { ...key, id: '6a1f2c3d-0000-4000-8000-000000000002', keyHash: 'hash-of-another-key' };
    const instance = credentialsRepository(store.db, { rememberKeysMs: LIFETIME_MS, now: () => 0 });
    const revoker = credentialsRepository(store.db);
    await instance.createApiKey(other);
    expect((await instance.findApiKeyByHash(other.keyHash))?.revokedAt).toBeNull();
    expect(await revoker.revokeApiKey(other.id, '2026-01-01T00:00:02.000Z')).toBe(true);
    expect((await instance.findApiKeyByHash(other.keyHash))?.revokedAt).toBe('2026-01-01T00:00:02.000Z');
  });

  it('remembers no key while a listener for other instances’ revokes is not hearing them, and forgets on each gap', async () => {
    const third = { ...key, id: '6a1f2c3d-0000-4000-8000-000000000003', keyHash: 'hash-of-a-third-key' };
    const instance = credentialsRepository(store.db, { rememberKeysMs: LIFETIME_MS, now: () => 0 });
    await instance.createApiKey(third);
    const revokeBehindItsBack = (at: string) =>
      store.db.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', third.id).execute();
    const restore = () =>
      store.db.updateTable('api_keys').set({ revoked_at: null }).where('id', '=', third.id).execute();

    const listener = revokesHeard();
    try {
      // Not yet listening: every look-up reads the store.
      expect((await instance.findApiKeyByHash(third.keyHash))?.revokedAt).toBeNull();
      await revokeBehindItsBack('2026-01-01T00:00:03.000Z');
      expect((await instance.findApiKeyByHash(third.keyHash))?.revokedAt).toBe('2026-01-01T00:00:03.000Z');

      // Hearing: the key is remembered again.
      await restore();
      listener.hearing(true);
      expect((await instance.findApiKeyByHash(third.keyHash))?.revokedAt).toBeNull();
      await revokeBehindItsBack('2026-01-01T00:00:04.000Z');
      expect((await instance.findApiKeyByHash(third.keyHash))?.revokedAt).toBeNull();

      // The connection drops: what was remembered is forgotten, since a revoke may be missed from now on.
      listener.hearing(false);
      expect((await instance.findApiKeyByHash(third.keyHash))?.revokedAt).toBe('2026-01-01T00:00:04.000Z');
    } finally {
      listener.closed();
    }
  });
});
