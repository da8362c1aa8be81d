import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { transactionalStorage } from '../app.ts';
import { openStore, SQLITE_FILE, type Store } from './database.ts';
import { migrate } from './migrate.ts';

const network = { allowPrivateNetworks: false };
const opened: { store: Store; dir: string }[] = [];
afterEach(async () => {
  for (const { store, dir } of opened.splice(0)) {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

async function embeddedStore(): Promise<{ store: Store; file: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'sf-busy-'));
  const store = openStore({ dataDir: dir });
  opened.push({ store, dir });
  await migrate(store);
  return { store, file: path.join(dir, SQLITE_FILE) };
}

const newStore = (name: string) => ({ id: randomUUID(), name, currency: 'BRL', createdAt: '2026-01-01T00:00:00.000Z' });

describe('a write SQLite refuses as busy', () => {
  it('runs again from the start and commits once, where it answered 500 "database is locked"', async () => {
    const { store, file } = await embeddedStore();
    const storage = transactionalStorage(store, network);
    // Another connection to the file, as the checkpoint thread is: it holds the write lock while this write,
    // which has already read, wants it. Waiting could deadlock, so SQLite refuses at once.
    const other = new DatabaseSync(file);
    let attempts = 0;
    try {
      const created = await storage.write(async ({ repositories }) => {
        attempts += 1;
        await repositories.stores.count();
        if (attempts === 1) other.exec('BEGIN IMMEDIATE');
        try {
          return await repositories.stores.createStore(newStore('Loja Leste'));
        } finally {
          if (other.isTransaction) other.exec('ROLLBACK');
        }
      });
      expect(created.name).toBe('Loja Leste');
    } finally {
      other.close();
    }
    expect(attempts).toBe(2);
    expect(await store.db.selectFrom('stores').select('name').execute()).toEqual([{ name: 'Loja Leste' }]);
  });

  it('gives up after five attempts with the error itself, and keeps nothing of them', async () => {
    const { store, file } = await embeddedStore();
    const storage = transactionalStorage(store, network);
    const other = new DatabaseSync(file);
    let attempts = 0;
    try {
      const write = storage.write(async ({ repositories }) => {
        attempts += 1;
        await repositories.stores.count();
        other.exec('BEGIN IMMEDIATE');
        try {
          return await repositories.stores.createStore(newStore(`Loja ${attempts}`));
        } finally {
          other.exec('ROLLBACK');
        }
      });
      await expect(write).rejects.toMatchObject({ code: 'ERR_SQLITE_ERROR', errcode: 5 });
    } finally {
      other.close();
    }
    expect(attempts).toBe(5);
    expect(await store.db.selectFrom('stores').select('name').execute()).toEqual([]);
  });
});
