import { execFileSync } from 'node:child_process';
import { closeSync, openSync, readSync, writeSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { childLocation, engines } from '../../test/harness.ts';
import { openStore, SQLITE_FILE, type Store } from './database.ts';
import { migrate } from './migrate.ts';

describe.runIf(engines.includes('sqlite'))('committedVersion on the embedded store', () => {
  // Removed after the suite by childLocation.
  const { location } = childLocation('sqlite');
  const file = path.join(location.dataDir, SQLITE_FILE);
  let store: Store;
  let other: Store;

  beforeAll(async () => {
    store = openStore(location);
    await migrate(store, location.databaseSchema);
    await sql`CREATE TABLE version_probe (n integer)`.execute(store.db);
    other = openStore(location);
  });
  afterAll(async () => {
    await other.close();
    await store.close();
  });

  const version = () => store.committedVersion?.take();
  const probe = (on: Store) => sql`INSERT INTO version_probe (n) VALUES (1)`.execute(on.db);

  test('holds while only reads run, and moves with each commit: another connection’s (the write thread’s) and the reading connection’s own', async () => {
    const before = version();
    await sql`SELECT count(*) FROM version_probe`.execute(store.reads ?? store.db);
    expect(version()).toBe(before);

    await probe(other);
    const afterOther = version();
    expect(afterOther).not.toBe(before);
    expect(version()).toBe(afterOther);

    await probe(store);
    const afterOwn = version();
    expect(afterOwn).not.toBe(afterOther);
    expect(version()).toBe(afterOwn);
  });

  test('moves with a commit of another process, and with a commit after the WAL has started over', async () => {
    const before = version();
    const insert = `const { DatabaseSync } = require('node:sqlite');
      const db = new DatabaseSync(process.argv[1]);
      db.exec('PRAGMA busy_timeout = 5000; INSERT INTO version_probe (n) VALUES (2)');`;
    execFileSync(process.execPath, ['-e', insert, file]);
    const afterProcess = version();
    expect(afterProcess).not.toBe(before);

    // Every frame copied and the WAL started from its beginning: the next commit's frame count is what it was.
    await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(other.db);
    await probe(other);
    const afterRestart = version();
    expect(afterRestart).not.toBe(afterProcess);
    await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(other.db);
    await probe(other);
    expect(version()).not.toBe(afterRestart);
    expect(await sql<{ n: number }>`SELECT count(*) AS n FROM version_probe`.execute(store.db)).toMatchObject({
      rows: [{ n: 5 }],
    });
  });

  test('a header read while a commit writes it (its two copies differ) answers a version no read has had', () => {
    const settled = version();
    const fd = openSync(`${file}-shm`, 'r+');
    const copy = Buffer.alloc(4);
    // The second copy's frame count (offset 48 + 16), as a commit that has written one copy and not yet the other.
    readSync(fd, copy, 0, 4, 64);
    try {
      const changed = Buffer.from(copy);
      changed.writeUInt8(changed.readUInt8(0) ^ 1, 0);
      writeSync(fd, changed, 0, 4, 64);
      const first = version();
      const second = version();
      expect(new Set([settled, first, second]).size).toBe(3);
    } finally {
      writeSync(fd, copy, 0, 4, 64);
      closeSync(fd);
    }
    expect(version()).toBe(settled);
  });
});
