import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from '../resources/index.ts';
import { adaptNodeSqlite } from './sqlite-adapter.ts';

export type Engine = 'sqlite' | 'postgres';

export interface Store {
  db: Kysely<Database>;
  engine: Engine;
  close(): Promise<void>;
}

export interface StoreOptions {
  /** PostgreSQL connection string; when absent the embedded SQLite store in `dataDir` is used. */
  databaseUrl?: string | undefined;
  /** PostgreSQL schema to work in (created when missing); lets test runs share one database. */
  databaseSchema?: string | undefined;
  dataDir: string;
}

export function openStore(options: StoreOptions): Store {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options.databaseSchema) : openSqlite(options.dataDir);
}

function openSqlite(dataDir: string): Store {
  mkdirSync(dataDir, { recursive: true });
  const database = new DatabaseSync(path.join(dataDir, 'storefront.sqlite'));
  // WAL keeps readers off the writer's back; NORMAL sync is durable across process crashes.
  database.exec(
    'PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;',
  );
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: adaptNodeSqlite(database) }) });
  return { db, engine: 'sqlite', close: () => db.destroy() };
}

function openPostgres(connectionString: string, schema: string | undefined): Store {
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new Error(`DATABASE_SCHEMA must be a lowercase SQL identifier, got "${schema}"`);
  }
  const pool = new pg.Pool({
    connectionString,
    max: 10,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, engine: 'postgres', close: () => db.destroy() };
}
