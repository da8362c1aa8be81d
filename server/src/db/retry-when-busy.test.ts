import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { lockHeldElsewhere } from '../../test/lock-held-elsewhere.ts';
import { tempDir } from '../../test/temp-dir.ts';
import { transactionalStorage } from '../storage.ts';
import { openStore, SQLITE_FILE, type Store } from './database.ts';
import { migrate } from './migrate.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * An embedded store, and a write whose first `refusals` attempts SQLite refuses as busy: in each, a statement on a
 * second connection to the file finds the write lock held (the write's own transaction took it as it began) and
 * is refused at once, since that connection does not wait. Whatever raised it, a refusal as busy inside a write is
 * what the retry is for.
 */
async function writeRefused(refusals: number) {
  const dir = tempDir('sf-busy-');
  const store: Store = openStore({ dataDir: dir });
  const rival = new DatabaseSync(path.join(dir, SQLITE_FILE));
  cleanups.push(() => store.close());
  cleanups.push(async () => rival.close());
  await migrate(store);
  let attempts = 0;
  const write = transactionalStorage(store, { allowPrivateNetworks: false }).write(async ({ repositories }) => {
    attempts += 1;
    await repositories.stores.count();
    if (attempts <= refusals) rival.exec('BEGIN IMMEDIATE');
    try {
      const name = `Loja ${attempts}`;
      return await repositories.stores.createStore({ id: randomUUID(), name, currency: 'BRL', createdAt: '2026' });
    } finally {
      if (rival.isTransaction) rival.exec('ROLLBACK');
    }
  });
  const storeNames = () => store.db.selectFrom('stores').select('name').execute();
  return { write, attempts: () => attempts, storeNames };
}

describe('a write that meets the write lock held by another connection', () => {
  it('waits for it as it begins and commits once (it reads first: begun without the lock, it was refused at once)', async () => {
    const dir = tempDir('sf-busy-');
    const store: Store = openStore({ dataDir: dir });
    cleanups.push(() => store.close());
    await migrate(store);
    const { released } = await lockHeldElsewhere(path.join(dir, SQLITE_FILE), 300);
    let attempts = 0;
    const started = Date.now();
    const write = transactionalStorage(store, { allowPrivateNetworks: false }).write(async ({ repositories }) => {
      attempts += 1;
      await repositories.stores.count();
      return repositories.stores.createStore({ id: randomUUID(), name: 'Loja', currency: 'BRL', createdAt: '2026' });
    });
    expect((await write).name).toBe('Loja');
    await released;
    expect(attempts).toBe(1);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    expect(await store.db.selectFrom('stores').select('name').execute()).toEqual([{ name: 'Loja' }]);
  });
});

describe('a write SQLite refuses as busy', () => {
  it('runs again from the start and commits once, where it answered 500 "database is locked"', async () => {
    const { write, attempts, storeNames } = await writeRefused(1);
    expect((await write).name).toBe('Loja 2');
    expect(attempts()).toBe(2);
    expect(await storeNames()).toEqual([{ name: 'Loja 2' }]);
  });

  it('gives up after five attempts with the error itself, and keeps nothing of them', async () => {
    const { write, attempts, storeNames } = await writeRefused(Number.POSITIVE_INFINITY);
    await expect(write).rejects.toMatchObject({ code: 'ERR_SQLITE_ERROR', errcode: 5, message: 'database is locked' });
    expect(attempts()).toBe(5);
    expect(await storeNames()).toEqual([]);
  });
});
