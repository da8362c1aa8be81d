import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { sql } from 'kysely';
import type { Store } from './database.ts';

const MIGRATIONS_DIR = path.resolve(import.meta.dirname, '../../migrations');
// Any constant works; it only has to be the same for every instance sharing the database.
const MIGRATION_LOCK_ID = 731_004_211;

/** Statements of a migration file: split on `;` at the end of a line (the files hold no such text in strings). */
function statementsOf(text: string): string[] {
  return text
    .split(/;\s*$/m)
    .map((statement) => statement.replace(/^\s*--.*$/gm, '').trim())
    .filter((statement) => statement.length > 0);
}

/**
 * Applies the numbered SQL files of server/migrations that the store has not seen, in order, each in its own
 * transaction. Several instances starting together on one PostgreSQL serialize on an advisory lock.
 * Throws (and so fails start-up) on the first error; the failing migration leaves nothing behind.
 */
export async function migrate(store: Store, schema?: string): Promise<string[]> {
  const { db, engine } = store;
  if (engine === 'postgres' && schema) await sql.raw(`CREATE SCHEMA IF NOT EXISTS ${schema}`).execute(db);
  // `NNN_name.sql` is applied to both engines, `NNN_name.postgres.sql` and `NNN_name.sqlite.sql` to one.
  const files = (await readdir(MIGRATIONS_DIR))
    .filter((name) => {
      const only = /^\d{3}_[a-z0-9_]+(?:\.(postgres|sqlite))?\.sql$/.exec(name);
      return only !== null && (only[1] === undefined || only[1] === engine);
    })
    .sort();
  const applied: string[] = [];
  await db.transaction().execute(async (trx) => {
    if (engine === 'postgres') await sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`.execute(trx);
    await sql`CREATE TABLE IF NOT EXISTS schema_migrations (version TEXT PRIMARY KEY, applied_at TEXT NOT NULL)`.execute(
      trx,
    );
  });
  for (const file of files) {
    await db.transaction().execute(async (trx) => {
      if (engine === 'postgres') await sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`.execute(trx);
      const done = await sql<{
        version: string;
      }>`SELECT version FROM schema_migrations WHERE version = ${file}`.execute(trx);
      if (done.rows.length > 0) return;
      for (const statement of statementsOf(await readFile(path.join(MIGRATIONS_DIR, file), 'utf8'))) {
        await sql.raw(statement).execute(trx);
      }
      await sql`INSERT INTO schema_migrations (version, applied_at) VALUES (${file}, ${new Date().toISOString()})`.execute(
        trx,
      );
      applied.push(file);
    });
  }
  return applied;
}
