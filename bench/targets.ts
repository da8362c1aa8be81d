// The five targets: each is started fresh on 127.0.0.1 (its own process, its own store) and stopped after.
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { ROOT } from './fixtures.ts';
import { type Child, freePort, startChild, stopChild, treeRss } from './processes.ts';
import { type Seed, seedServer } from './seed.ts';

export const TARGET_NAMES = [
  'baseline-raw',
  'baseline-express',
  'prism',
  'server-embedded',
  'server-postgres',
] as const;
export type TargetName = (typeof TARGET_NAMES)[number];

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

export interface Target {
  name: TargetName;
  url: string;
  pid: number;
  /** Whether it is the reference server (the targets the goals are about). */
  server: boolean;
  seed: Seed;
  /** Resident memory of the target (with its children) in bytes. */
  rss(): number;
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Webhook counts of the list fixtures (server targets). */
  webhookCounts: number[];
  databaseUrl: string;
  /** Extra Node flags for the server process (the profile run passes --cpu-prof). */
  nodeFlags?: string[];
}

/** Stores and keys that only have to look right: the baselines ignore them and Prism only checks their format. */
const STATIC_SEED: Seed = {
  storeId: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
  apiKey: `sf_live_${randomBytes(32).toString('base64url')}`,
  productId: '3fa85f64-5717-4562-b3fc-2c963f66afa6',
  listStores: [],
};

function target(name: TargetName, child: Child, url: string, seed: Seed, cleanup = async () => {}): Target {
  const pid = child.process.pid as number;
  return {
    name,
    url,
    pid,
    server: name.startsWith('server-'),
    seed,
    rss: () => treeRss(pid),
    async stop() {
      await stopChild(child);
      await cleanup();
    },
  };
}

async function startBaseline(name: 'baseline-raw' | 'baseline-express'): Promise<Target> {
  const port = await freePort();
  const child = await startChild([path.join(ROOT, 'bench', `${name}.ts`)], { PORT: String(port) }, /listening \d+/);
  return target(name, child, `http://127.0.0.1:${port}`, STATIC_SEED);
}

async function startPrism(): Promise<Target> {
  const port = await freePort();
  // What `npm run mock` runs, without npm in between (so the pid is the mock's own).
  const child = await startChild(
    [path.join(ROOT, 'scripts/mock/mock.ts')],
    { PORT: String(port), HOST: '127.0.0.1' },
    /contract-faithful mock on/,
    120_000,
  );
  return target('prism', child, `http://127.0.0.1:${port}`, STATIC_SEED);
}

/** True when PostgreSQL answers at `databaseUrl` (the bench does not start a database). */
export async function postgresReachable(databaseUrl: string): Promise<string | undefined> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    return `PostgreSQL is not reachable at ${databaseUrl.replace(/:[^:@/]*@/, ':***@')}: ${(error as Error).message}`;
  } finally {
    await client.end().catch(() => {});
  }
}

async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  } finally {
    await client.end();
  }
}

async function startServer(name: 'server-embedded' | 'server-postgres', options: StartOptions): Promise<Target> {
  const port = await freePort();
  const adminToken = `bench_admin_${randomBytes(16).toString('hex')}`;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'storefront-bench-'));
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const env: NodeJS.ProcessEnv = {
    PORT: String(port),
    DATA_DIR: dataDir,
    ADMIN_TOKEN: adminToken,
    RATE_LIMIT_MAX: '1000000',
    RATE_LIMIT_WINDOW_SECONDS: '60',
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATABASE_URL: name === 'server-postgres' ? options.databaseUrl : '',
    DATABASE_SCHEMA: name === 'server-postgres' ? schema : '',
  };
  const cleanup = async () => {
    await rm(dataDir, { recursive: true, force: true });
    if (name === 'server-postgres') await dropSchema(options.databaseUrl, schema);
  };
  let child: Child | undefined;
  try {
    child = await startChild(
      [...(options.nodeFlags ?? []), path.join(ROOT, 'server/src/server.ts')],
      env,
      /listening on http/,
    );
    const url = `http://127.0.0.1:${port}`;
    const access =
      name === 'server-postgres'
        ? { engine: 'postgres' as const, databaseUrl: options.databaseUrl, schema }
        : { engine: 'sqlite' as const, file: path.join(dataDir, 'storefront.sqlite') };
    const seed = await seedServer(url, adminToken, access, options.webhookCounts);
    return target(name, child, url, seed, cleanup);
  } catch (error) {
    if (child) await stopChild(child);
    await cleanup();
    throw error;
  }
}

export function startTarget(name: TargetName, options: StartOptions): Promise<Target> {
  switch (name) {
    case 'baseline-raw':
    case 'baseline-express':
      return startBaseline(name);
    case 'prism':
      return startPrism();
    case 'server-embedded':
    case 'server-postgres':
      return startServer(name, options);
  }
}
