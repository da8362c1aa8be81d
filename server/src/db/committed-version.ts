// A store's committed version: a token that differs whenever a write has been committed since it was taken, by
// this process or any other. A reply read while the token holds may be sent again (http/reply-cache.ts).
import { closeSync, openSync, readSync } from 'node:fs';
import type { DatabaseSync } from 'node:sqlite';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../resources/index.ts';
import { compiledOnce } from './compiled-once.ts';

/**
 * The WAL-index header at the start of the `-shm` file (https://sqlite.org/walformat.html), 48 bytes, kept twice.
 * Every commit, by any connection of any process, writes it: the second copy, a memory barrier, then the first.
 */
const HEADER_BYTES = 48;
/** iChange, isInit, bigEndCksum, szPage, mxFrame, nPage, aFrameCksum and aSalt: what a commit or a restart moves. */
const MOVED_BY_A_COMMIT = { start: 8, end: 40 };

export interface CommittedVersion {
  /** The token; taking it reads 96 bytes of a file and runs no SQL. */
  version(): string;
  close(): void;
}

/**
 * The version of the embedded store's committed data, read from its WAL index, where SQLite itself looks. A commit
 * writes frames to the WAL and then the WAL-index header: the frame count (mxFrame) grows with every commit, and
 * when the WAL starts over its salts change. The header is read as SQLite's readers read it, without a lock: the
 * first copy, then the second; copies that differ were read while a commit wrote them, and answer a token no other
 * read gets, so nothing is sent again on it. What it replaces, `PRAGMA data_version` with `total_changes()`, was a
 * statement that began a read transaction (two `fcntl` locks on the same file) for every read by id: 11 µs of the
 * request thread's CPU per GET under load.
 */
export function sqliteCommittedVersion(database: DatabaseSync, file: string): CommittedVersion {
  // SQLite makes the `-shm` file with the connection's first read of a WAL database.
  database.prepare('SELECT 1 FROM sqlite_schema LIMIT 1').get();
  const fd = openSync(`${file}-shm`, 'r');
  const header = Buffer.alloc(2 * HEADER_BYTES);
  let torn = 0;
  return {
    version() {
      readSync(fd, header, 0, header.length, 0);
      if (header.compare(header, HEADER_BYTES, 2 * HEADER_BYTES, 0, HEADER_BYTES) !== 0) return `torn ${++torn}`;
      return header.toString('hex', MOVED_BY_A_COMMIT.start, MOVED_BY_A_COMMIT.end);
    },
    close: () => closeSync(fd),
  };
}

/**
 * PostgreSQL's committed version: the current snapshot (`pg_current_snapshot()`: the oldest transaction still
 * running, the next one to start, and those running between), one statement sent with the other reads of its turn
 * (pg-shared-connections.ts). Every transaction that writes, of every instance and of anything else in the
 * cluster, takes an id that moves the snapshot, and its commit moves it again, so a snapshot that reads the same
 * sees the same committed data. What else writes (the rate limit's leases, the outbox) moves it too: a reply is
 * then read again, never sent stale.
 */
export function pgCommittedVersion(reads: Kysely<Database>): () => Promise<string> {
  const current = compiledOnce((db: Kysely<Database>) =>
    db.selectNoFrom(sql<string>`pg_current_snapshot()::text`.as('version')),
  );
  return async () => {
    const [row] = await current(reads, []);
    if (row === undefined) throw new Error('pg_current_snapshot() answered no row');
    return row.version;
  };
}
