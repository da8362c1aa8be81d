// A store's committed version: a token that differs whenever a write has been committed since it was taken, by
// this process or any other. A reply read while the token holds may be sent again (http/reply-cache.ts).
import type { DatabaseSync } from 'node:sqlite';

/**
 * The embedded store's, on the connection reads use: `data_version` changes when another connection commits (the
 * write thread, another process), and `total_changes()` counts the rows this connection changed itself, which
 * `data_version` leaves out. One statement of a few microseconds, run on the connection directly: inside a
 * transaction Kysely holds open on it, it counts that transaction's changes too, and a read waits for it to end.
 */
export function sqliteCommittedVersion(database: DatabaseSync): () => string {
  const statement = database.prepare('SELECT data_version, total_changes() FROM pragma_data_version');
  statement.setReturnArrays(true);
  return () => (statement.get() as unknown as number[]).join('.');
}
