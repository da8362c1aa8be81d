import { availableParallelism } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { ConfigError } from '../config.ts';
import { dataDirError, ensureDataDir } from '../data-dir.ts';
import { newId } from '../domain/new-id.ts';
import type { Database } from '../resources/index.ts';
import { pgCommittedVersion, sqliteCommittedVersion } from './committed-version.ts';
import { answerLater } from './pg-answered-later.ts';
import { withServerOptions } from './pg-connection-options.ts';
import { type Listener, type ListenHandlers, pgListener } from './pg-listener.ts';
import { prepareStatements } from './pg-prepared-statements.ts';
import { sharedConnections } from './pg-shared-connections.ts';
import { adaptNodeSqlite } from './sqlite-adapter.ts';
import { startCheckpointer } from './sqlite-checkpointer.ts';
import type { RestartGate, TransactionHooks } from './sqlite-restart-gate.ts';

export type Engine = 'sqlite' | 'postgres';

export interface Store {
  db: Kysely<Database>;
  /**
   * PostgreSQL only: reads outside a transaction, on connections they share (pg-shared-connections.ts); a
   * transaction must use `db`. Undefined: reads use `db`.
   */
  reads?: Kysely<Database>;
  engine: Engine;
  /**
   * PostgreSQL only, where several instances may share the store: hears what other instances announce on
   * `channel` (NOTIFY) until the store closes. The embedded store belongs to one process, which needs no telling.
   */
  listen?(channel: string, handlers: ListenHandlers): void;
  /**
   * The embedded store only: its file, for the write thread's connection (`write-thread.ts`), when the
   * checkpointer's thread has failed, so that every connection that writes checkpoints itself again, and the gate
   * the write thread waits at while the checkpointer's RESTART holds the write lock (`sqlite-restart-gate.ts`).
   */
  embedded?: { file: string; checkpointerFellBack: Promise<void>; restartGate: RestartGate };
  /**
   * A token that differs whenever a write has been committed since it was taken, by this process or another
   * (committed-version.ts), so that replies read while it holds may be sent again: on the embedded store read from
   * its WAL index at once, on PostgreSQL a statement (the current snapshot), which costs a round trip.
   */
  committedVersion?: {
    take(): string | Promise<string>;
    /** Whether taking it costs a round trip to the database (the reply cache then checks it only while it pays). */
    roundTrip: boolean;
  };
  close(): Promise<void>;
}

export interface StoreOptions {
  /** PostgreSQL connection string; when absent the embedded SQLite store in `dataDir` is used. */
  databaseUrl?: string | undefined;
  /** PostgreSQL schema to work in (created when missing); lets test runs share one database. */
  databaseSchema?: string | undefined;
  dataDir: string;
}

/** The embedded store's file in DATA_DIR (`npm run reset` removes it with its WAL companions). */
export const SQLITE_FILE = 'storefront.sqlite';
/**
 * Connections per process: a request holds one only while its queries run, so about two per core keeps every core
 * busy without making PostgreSQL switch between more backends than the machine can run at once.
 */
const POOL_MAX = Math.max(4, 2 * availableParallelism());
/** Connections the reads share: one per core PostgreSQL could give them, each carrying many reads at once. */
export const READ_CONNECTIONS = Math.max(2, availableParallelism());
/** How long start-up waits for PostgreSQL before saying DATABASE_URL is unreachable. */
const CONNECT_TIMEOUT_MS = 5_000;

export function openStore(options: StoreOptions): Store {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options.databaseSchema) : openSqlite(options.dataDir);
}

/**
 * Start-up's open: the store, proven usable. A PostgreSQL that cannot be reached or refuses the login, or a
 * DATA_DIR that cannot hold the embedded store, is a ConfigError naming the variable to fix.
 */
export async function connectStore(options: StoreOptions): Promise<Store> {
  if (!options.databaseUrl) return openSqlite(options.dataDir);
  // One probe connection with a deadline; the pool itself keeps pg's defaults for the requests.
  const probe = new pg.Client({ connectionString: options.databaseUrl, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  try {
    await probe.connect();
    await probe.query('select 1');
  } catch (error) {
    throw unreachable(options.databaseUrl, error);
  } finally {
    await probe.end().catch(() => undefined);
  }
  return openPostgres(options.databaseUrl, options.databaseSchema);
}

/** Names where it tried (host, port, database) and why, never the URL itself: it may hold a password. */
function unreachable(databaseUrl: string, error: unknown): ConfigError {
  let where = 'the server it names';
  try {
    const url = new URL(databaseUrl);
    where = `${url.hostname || 'localhost'}:${url.port || '5432'}${url.pathname.length > 1 ? url.pathname : ''}`;
  } catch {
    // pg reads shapes URL does not (a socket directory as host): keep the generic wording.
  }
  const code = (error as { code?: unknown }).code;
  const message = ((error as Error).message || String(error)).split('\n')[0] ?? '';
  const reason = typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
  return new ConfigError(
    `DATABASE_URL: cannot use PostgreSQL at ${where} (${reason}): start it or correct the URL, or unset DATABASE_URL to use the embedded store`,
  );
}

/** A connection to the embedded store's file, as the request thread and the write thread open theirs. */
export function connectSqlite(file: string): DatabaseSync {
  const database = new DatabaseSync(file);
  // WAL keeps readers off the writer's back; NORMAL sync is durable across process crashes.
  database.exec(
    'PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 5000;',
  );
  // Ids made by a statement (the outbox's deliveries); PostgreSQL's new_id() is server/migrations/008_new_id.postgres.sql.
  database.function('new_id', { deterministic: false, useBigIntArguments: false }, newId);
  return database;
}

/** Kysely on an embedded store's connection; `hooks` are told as each of its transactions begins and ends. */
export function sqliteKysely(database: DatabaseSync, hooks?: TransactionHooks): Kysely<Database> {
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: adaptNodeSqlite(database, hooks) }) });
}

function openSqlite(dataDir: string): Store {
  ensureDataDir(dataDir);
  const file = path.join(dataDir, SQLITE_FILE);
  let database: DatabaseSync;
  try {
    database = connectSqlite(file);
  } catch (error) {
    throw dataDirError(dataDir, error);
  }
  const checkpointer = startCheckpointer(database, file);
  const db = sqliteKysely(database);
  const committed = sqliteCommittedVersion(database, file);
  return {
    db,
    engine: 'sqlite',
    embedded: { file, checkpointerFellBack: checkpointer.fellBack, restartGate: checkpointer.gate },
    committedVersion: { take: committed.version, roundTrip: false },
    async close() {
      await checkpointer.stop();
      committed.close();
      await db.destroy();
    },
  };
}

function openPostgres(connectionString: string, schema: string | undefined): Store {
  if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new Error(`DATABASE_SCHEMA must be a lowercase SQL identifier, got "${schema}"`);
  }
  // A prepared statement runs PostgreSQL's generic plan after five executions (`auto`), planned once per
  // connection instead of for every execution: planning costs PostgreSQL more CPU than a look-up by key. Sequential
  // scans are off, so a plan made while a table is small still reads by index once it has grown, and look-ups by key
  // name no other indexable column (filter-only-equals.ts). Statements that page are not prepared, so each is
  // planned for its values (pg-prepared-statements.ts). pg-plans.test.ts grows a store under plans made while small.
  const connection = withServerOptions(
    connectionString,
    ['-c plan_cache_mode=auto -c enable_seqscan=off', ...(schema ? [`-c search_path=${schema}`] : [])].join(' '),
  );
  // Statements written without waiting for the previous answer (pg-answered-later.ts).
  const pool = new pg.Pool({ ...connection, max: POOL_MAX, pipeline: true });
  pool.on('connect', (client) => {
    prepareStatements(client);
    answerLater(client);
  });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const reads = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: sharedConnections(connection, READ_CONNECTIONS, prepareStatements) }),
  });
  // One connection hears every channel, opened at the first.
  let listener: Listener | undefined;
  return {
    db,
    reads,
    engine: 'postgres',
    committedVersion: { take: pgCommittedVersion(reads), roundTrip: true },
    listen: (channel, handlers) => {
      listener ??= pgListener(connection);
      listener.listen(channel, handlers);
    },
    async close() {
      await listener?.close();
      await Promise.all([db.destroy(), reads.destroy()]);
    },
  };
}
