import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import createClient from 'openapi-fetch';
import pino, { type Logger } from 'pino';
import { afterAll, inject } from 'vitest';
import type { components, paths } from '../../generated/openapi.ts';
import { createApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config.ts';
import { type Engine, openStore, type Store } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import type { Handlers } from '../src/resources/operation.ts';
import type { WriteThread } from '../src/write-thread.ts';
import { TEST_DATABASE_URL } from './engines.global-setup.ts';

export { TEST_DATABASE_URL };

type ScopeName = components['schemas']['ScopeName'];
/** Both engines run the same tests (see engines.global-setup.ts); SERVER_TEST_ENGINES=sqlite narrows it. */
export const engines: Engine[] = inject('serverTestEngines');

export interface TestServer {
  baseUrl: string;
  adminToken: string;
  engine: Engine;
  /** Where the data lives: a DATA_DIR for sqlite, a schema for postgres (for restarts on the same data). */
  location: { dataDir: string; databaseUrl?: string; databaseSchema?: string };
  /** The embedded store's write thread (none on PostgreSQL, or with handlers replaced). */
  writeThread: WriteThread | undefined;
  close(options?: { keepData?: boolean }): Promise<void>;
}

export interface StartOptions {
  engine: Engine;
  env?: Record<string, string>;
  overrides?: Partial<Handlers>;
  /** Reuse the data of an earlier server (restart tests). */
  location?: TestServer['location'];
  /** Where the server logs (silent unless given; the log hygiene test captures it). */
  logger?: Logger;
}

const ADMIN_TOKEN = 'test-admin-token-0123456789';

/** A new place for a store's data: a DATA_DIR, and for postgres a schema of its own in the test database. */
export function newLocation(engine: Engine): TestServer['location'] {
  return {
    dataDir: mkdtempSync(path.join(tmpdir(), 'sf-test-')),
    ...(engine === 'postgres'
      ? { databaseUrl: TEST_DATABASE_URL, databaseSchema: `t_${randomBytes(6).toString('hex')}` }
      : {}),
  };
}

/**
 * A new location for server processes (`child-server.ts`) to share, removed after the suite: their environment
 * (DATA_DIR, and on postgres DATABASE_URL and DATABASE_SCHEMA) and the same place as a store location.
 */
export function childLocation(engine: Engine): { env: Record<string, string>; location: TestServer['location'] } {
  const location = newLocation(engine);
  afterAll(() => discard(openStore(location), location));
  const { dataDir, databaseUrl, databaseSchema } = location;
  const env: Record<string, string> =
    databaseUrl && databaseSchema
      ? { DATA_DIR: dataDir, DATABASE_URL: databaseUrl, DATABASE_SCHEMA: databaseSchema }
      : { DATA_DIR: dataDir };
  return { env, location };
}

/** Closes a store and deletes the data of its location (its schema on postgres, its DATA_DIR). */
async function discard(store: Store, location: TestServer['location']): Promise<void> {
  if (location.databaseSchema) {
    await sql.raw(`DROP SCHEMA IF EXISTS ${location.databaseSchema} CASCADE`).execute(store.db);
  }
  await store.close();
  rmSync(location.dataDir, { recursive: true, force: true });
}

/** A migrated store of its own, for tests that drive repositories or handlers without HTTP. */
export async function freshStore(engine: Engine): Promise<{ store: Store; close(): Promise<void> }> {
  const location = newLocation(engine);
  const store = openStore(location);
  await migrate(store, location.databaseSchema);
  return { store, close: () => discard(store, location) };
}

/** Builds the app exactly as start-up does and listens on a free port; each server gets its own data. */
export async function startServer({
  engine,
  env = {},
  overrides,
  location,
  logger,
}: StartOptions): Promise<TestServer> {
  const where = location ?? newLocation(engine);
  const config: Config = loadConfig({
    ADMIN_TOKEN,
    DATA_DIR: where.dataDir,
    LOG_LEVEL: 'silent',
    // The suites prove every response against the contract, whatever `npm start` defaults to.
    VALIDATE_RESPONSES: 'true',
    // Every test client is 127.0.0.1 and several suites answer many 401s on purpose; auth-throttle.test.ts sets it.
    AUTH_FAILURE_LIMIT: '1000000',
    ...(where.databaseUrl ? { DATABASE_URL: where.databaseUrl, DATABASE_SCHEMA: where.databaseSchema } : {}),
    ...env,
  });
  const store = openStore(config);
  await migrate(store, config.databaseSchema);
  const { app, worker, writeThread } = createApp({
    store,
    config: { ...config, adminToken: ADMIN_TOKEN },
    logger: logger ?? pino({ level: 'silent' }),
    ...(overrides ? { overrides } : {}),
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  worker.start();
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    adminToken: ADMIN_TOKEN,
    engine,
    location: where,
    writeThread,
    async close({ keepData = false } = {}) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await worker.stop(5000);
      await writeThread?.stop();
      if (keepData) await store.close();
      else await discard(store, where);
    },
  };
}

export interface RawResponse {
  status: number;
  headers: Headers;
  /** The parsed JSON, the text when it is not JSON, undefined when empty: narrowed by whoever reads it. */
  body: unknown;
}

/**
 * A request exactly as given, for what a typed client cannot send: a path or method the contract has no operation
 * for, a query, body or headers that are wrong on purpose.
 */
export async function rawRequest(
  baseUrl: string,
  method: string,
  urlPath: string,
  init: { headers?: Record<string, string>; body?: string | Uint8Array<ArrayBuffer> } = {},
): Promise<RawResponse> {
  const response = await fetch(baseUrl + urlPath, {
    method,
    ...(init.headers ? { headers: init.headers } : {}),
    ...(init.body !== undefined ? { body: init.body } : {}),
  });
  return { status: response.status, headers: response.headers, body: parsed(await response.text()) };
}

function parsed(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export interface Tenant {
  storeId: string;
  apiKey: string;
  apiKeyId: string;
  /** Headers of a v1 request as this tenant. */
  headers: Record<string, string>;
}

/** A fresh store and an API key for it (all scopes unless given), through the admin API. */
export async function createTenant(server: TestServer, scopes?: ScopeName[]): Promise<Tenant> {
  const admin = createClient<paths>({ baseUrl: server.baseUrl, headers: adminHeaders(server) });
  const store = await admin.POST('/admin/stores', { body: { name: 'Loja Teste', currency: 'BRL' } });
  if (!store.data) throw new Error(`createStore answered ${store.response.status}`);
  const storeId = store.data.data.store.id;
  const key = await admin.POST('/admin/api-keys', { body: { storeIds: [storeId], ...(scopes ? { scopes } : {}) } });
  if (!key.data) throw new Error(`createApiKey answered ${key.response.status}`);
  const { key: apiKey, id: apiKeyId } = key.data.data.apiKey;
  return { storeId, apiKey, apiKeyId, headers: { authorization: `Bearer ${apiKey}`, 'x-store-id': storeId } };
}

export const adminHeaders = (server: TestServer) => ({ authorization: `Bearer ${server.adminToken}` });
