import { randomUUID } from 'node:crypto';
import { copyFileSync, existsSync, readFileSync, statSync } from 'node:fs';
import { endianness } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/temp-dir.ts';
import { createRepositories } from '../resources/index.ts';
import { openStore, SQLITE_FILE, type Store } from './database.ts';
import { migrate } from './migrate.ts';
import { COPY_INTERVAL_MS, SYNC_INTERVAL_MS, startCheckpointer } from './sqlite-checkpointer.ts';

const newDir = () => tempDir('sf-checkpoint-');

/** The store names found in a copy of the database file alone: what survives if its WAL is lost. */
function storeNamesInFileAlone(file: string): string[] {
  const copy = path.join(newDir(), SQLITE_FILE);
  copyFileSync(file, copy);
  const database = new DatabaseSync(copy);
  try {
    return database
      .prepare('SELECT name FROM stores ORDER BY name')
      .all()
      .map((row) => String(row.name));
  } catch {
    return []; // the copy predates the migration that creates the table
  } finally {
    database.close();
  }
}

const addStore = (store: Store, name: string) =>
  createRepositories(store.db, 'sqlite').stores.createStore({
    id: randomUUID(),
    name,
    currency: 'BRL',
    createdAt: '2026-01-01T00:00:00.000Z',
  });

/** The WAL header's checkpoint sequence number: SQLite adds one each time the WAL starts over from its start. */
const walRestarts = (file: string) => readFileSync(`${file}-wal`).readUInt32BE(12);

/**
 * Whether every frame of the WAL has been copied into the database file, read from the WAL index (`-shm`, native
 * byte order) without checkpointing: its header's `mxFrame` (offset 16) against `nBackfill` (offset 96).
 */
function walAllCopied(file: string): boolean {
  const index = readFileSync(`${file}-shm`);
  const at = (offset: number) => (endianness() === 'LE' ? index.readUInt32LE(offset) : index.readUInt32BE(offset));
  return at(96) === at(16);
}

/** Short checkpoint intervals, so that a loaded machine still runs many of them within a test. */
const SHORT_INTERVAL_MS = 20;

/** A checkpointer that syncs and copies at every interval, starting the WAL over past `restartAfterFrames`. */
const everyInterval = (intervalMs: number, restartAfterFrames: number) => ({
  syncIntervalMs: intervalMs,
  copyIntervalMs: intervalMs,
  restartAfterFrames,
});

/**
 * A WAL database of one table in a new directory, its connection opened as the store's own (it waits out the
 * moment the thread holds writes back), and an insert of one row.
 */
function walTable() {
  const file = path.join(newDir(), SQLITE_FILE);
  const database = new DatabaseSync(file, { timeout: 5_000 });
  database.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; CREATE TABLE rows (value TEXT)');
  const statement = database.prepare('INSERT INTO rows (value) VALUES (?)');
  return { file, database, insert: () => statement.run(randomUUID()) };
}

async function openMigrated(dataDir: string): Promise<Store> {
  const store = openStore({ dataDir });
  await migrate(store);
  return store;
}

describe('the embedded store checkpoints its WAL on a thread of its own', () => {
  it('a committed write reaches the database file itself within a copy interval or two', async () => {
    const dataDir = newDir();
    const store = await openMigrated(dataDir);
    try {
      await addStore(store, 'Loja Norte');
      // SQLite alone would leave these few pages in the WAL until it held a thousand.
      await expect
        .poll(() => storeNamesInFileAlone(path.join(dataDir, SQLITE_FILE)), {
          timeout: COPY_INTERVAL_MS * 3,
          interval: SYNC_INTERVAL_MS / 2,
        })
        .toEqual(['Loja Norte']);
    } finally {
      await store.close();
    }
  });

  it('copies frames into the database file only at the copy interval, not at every sync', async () => {
    const { file, database, insert } = walTable();
    const syncIntervalMs = SHORT_INTERVAL_MS;
    const checkpointer = startCheckpointer(database, file, {
      syncIntervalMs,
      copyIntervalMs: 60_000,
      restartAfterFrames: Number.MAX_SAFE_INTEGER,
    });
    try {
      insert();
      await new Promise((resolve) => setTimeout(resolve, syncIntervalMs * 25));
      expect(walAllCopied(file)).toBe(false);
    } finally {
      await checkpointer.stop();
      database.close();
    }
  });

  it('closing the store stops the thread: the last connection leaves no WAL behind and the store opens again', async () => {
    const dataDir = newDir();
    const first = await openMigrated(dataDir);
    await addStore(first, 'Loja Sul');
    await first.close();
    expect(existsSync(path.join(dataDir, `${SQLITE_FILE}-wal`))).toBe(false);

    const second = await openMigrated(dataDir);
    try {
      expect(await second.db.selectFrom('stores').select('name').execute()).toEqual([{ name: 'Loja Sul' }]);
    } finally {
      await second.close();
    }
  });

  it('keeps the WAL bounded while writes never pause: they start it over instead of growing it', async () => {
    const { file, database, insert } = walTable();
    const intervalMs = SHORT_INTERVAL_MS;
    const checkpointer = startCheckpointer(database, file, everyInterval(intervalMs, 256));
    let commits = 0;
    let largestWal = 0;
    try {
      // Each commit writes at least one page to the WAL; the event loop turns between them, as between requests.
      for (const until = Date.now() + intervalMs * 50; Date.now() < until; commits += 1) {
        insert();
        if (commits % 10 === 0) {
          largestWal = Math.max(largestWal, statSync(`${file}-wal`).size);
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
    } finally {
      await checkpointer.stop();
      database.close();
    }
    const pageBytes = 4096;
    expect(commits).toBeGreaterThan(1_000);
    // Without the restart the WAL holds a page for every commit.
    expect(largestWal).toBeLessThan((commits * pageBytes) / 2);
  });

  it('writes that pause for a few intervals start the WAL over by themselves, with no RESTART', async () => {
    const { file, database, insert } = walTable();
    const intervalMs = SHORT_INTERVAL_MS;
    // A bound never reached: only SQLite itself can start the WAL over here.
    const checkpointer = startCheckpointer(database, file, everyInterval(intervalMs, Number.MAX_SAFE_INTEGER));
    try {
      for (let commit = 0; commit < 200; commit++) insert();
      const before = walRestarts(file);
      // The thread copies every frame meanwhile; the next write then finds nothing left to keep and starts over.
      await expect.poll(() => walAllCopied(file), { timeout: 10_000, interval: intervalMs }).toBe(true);
      // Stopped first, so that no checkpoint of its own is reading the WAL at the moment of the write.
      await checkpointer.stop();
      insert();
      expect(walRestarts(file)).toBe(before + 1);
    } finally {
      await checkpointer.stop();
      database.close();
    }
  });

  it('a WAL past the bound while writes pause is started over once, not again at every interval', async () => {
    const { file, database, insert } = walTable();
    const intervalMs = SHORT_INTERVAL_MS;
    const checkpointer = startCheckpointer(database, file, everyInterval(intervalMs, 100));
    try {
      for (let commit = 0; commit < 200; commit++) insert();
      await expect.poll(() => walAllCopied(file), { timeout: 10_000, interval: intervalMs }).toBe(true);
      // Every RESTART runs with the gate closed (its first word): count its closings over 25 intervals, watching
      // it without a pause, as the write thread would meet them.
      let closings = 0;
      let closed = false;
      for (const until = performance.now() + intervalMs * 25; performance.now() < until; ) {
        const now = Atomics.load(checkpointer.gate, 0) === 1;
        if (now && !closed) closings += 1;
        closed = now;
      }
      // The first RESTART may fall in the watch; none after it until a write.
      expect(closings).toBeLessThanOrEqual(1);
    } finally {
      await checkpointer.stop();
      database.close();
    }
  });

  it('when the thread cannot run, the request connection checkpoints itself again at SQLite’s threshold', async () => {
    const database = new DatabaseSync(path.join(newDir(), SQLITE_FILE));
    database.exec('PRAGMA journal_mode = WAL');
    const checkpointer = startCheckpointer(database, path.join(newDir(), 'missing', SQLITE_FILE));
    try {
      await expect
        .poll(() => database.prepare('PRAGMA wal_autocheckpoint').get()?.wal_autocheckpoint, { timeout: 10_000 })
        .toBe(1000);
    } finally {
      await checkpointer.stop();
      database.close();
    }
  });
});
