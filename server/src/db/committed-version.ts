// A store's committed version: a token that differs whenever a write has been committed since it was taken, by
// this process or any other. A reply read while the token holds may be sent again (http/reply-cache.ts).
import type { DatabaseSync } from 'node:sqlite';
import { CompiledQuery, type Kysely } from 'kysely';

/**
 * The embedded store, on the connection reads use: `data_version` changes when another connection commits (the
 * write thread, another process), and `total_changes()` counts the rows this connection changed itself, which
 * `data_version` leaves out. One statement of a few microseconds, run on the connection directly: inside a
 * transaction Kysely holds open on it, it counts that transaction's changes too, and a read waits for it to end.
 */
export function sqliteCommittedVersion(database: DatabaseSync): () => Promise<string> {
  const statement = database.prepare('SELECT data_version, total_changes() FROM pragma_data_version');
  statement.setReturnArrays(true);
  return async () => (statement.get() as unknown as number[]).join('.');
}

/**
 * PostgreSQL: the current snapshot (`xmin:xmax:in-progress`). Two equal snapshots see the same commits: a
 * transaction that writes takes an id, which moves `xmax`, and one that ends leaves the in-progress list. So it
 * changes with every commit of every instance on the database server, and with nothing that only reads.
 */
export function postgresCommittedVersion<DB>(reads: Kysely<DB>): () => Promise<string> {
  const query = CompiledQuery.raw('SELECT pg_current_snapshot()::text AS snapshot', []) as CompiledQuery<{
    snapshot: string;
  }>;
  return async () => {
    const { rows } = await reads.executeQuery(query);
    return rows[0]?.snapshot ?? '';
  };
}
