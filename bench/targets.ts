// The targets: each is started fresh on 127.0.0.1 (its own process, its own store) and stopped after.
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import getPort from 'get-port';
import pg from 'pg';
import { ROOT } from './fixtures.ts';
import {
  type Child,
  postgresCpu,
  startChild,
  stopChild,
  type ThreadTimes,
  threadTimes,
  treeCpu,
  treeRss,
} from './processes.ts';
import { type Seed, seedServer } from './seed.ts';

export const TARGET_NAMES = [
  'baseline-raw',
  'baseline-express',
  'prism',
  'mock',
  'server-embedded',
  'server-postgres',
] as const;
/** A fixed target, or a server as it was at a git ref (`server-embedded@<ref>`, `server-postgres@<ref>`: `--baseline-ref`). */
export type TargetName = (typeof TARGET_NAMES)[number] | `${ServerName}@${string}`;
type ServerName = 'server-embedded' | 'server-postgres';

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

/** Every request probes this path until the target answers; any status counts (Prism and baselines answer too). */
const PROBE_PATH = '/api/v1/products';

export interface Target {
  name: TargetName;
  url: string;
  pid: number;
  /** Whether it is the reference server (the targets the goals are about). */
  server: boolean;
  seed: Seed;
  /** Milliseconds from spawn to the first answered request. */
  coldStartMs: number;
  /** Resident memory of the target (with its children) in bytes. */
  rss(): number;
  /** CPU time used so far by the target (with its children), in microseconds. */
  cpu(): number;
  /** CPU time used so far by the database the target uses (server-postgres: PostgreSQL's processes). */
  databaseCpu?: () => number;
  /** The scheduling of its main thread so far: a server's request thread (undefined where the OS does not say). */
  mainThread(): ThreadTimes | undefined;
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
    coldStartMs: child.coldStartMs,
    rss: () => treeRss(pid),
    cpu: () => treeCpu(pid),
    mainThread: () => threadTimes(pid),
    // PostgreSQL's processes are visible only when it runs on this machine.
    ...(name.startsWith('server-postgres') && postgresCpu() > 0 ? { databaseCpu: postgresCpu } : {}),
    async stop() {
      await stopChild(child);
      await cleanup();
    },
  };
}

async function startStatic(name: 'baseline-raw' | 'baseline-express' | 'prism' | 'mock'): Promise<Target> {
  const port = await getPort({ host: '127.0.0.1' });
  const url = `http://127.0.0.1:${port}`;
  const probe = url + PROBE_PATH;
  let child: Child;
  if (name === 'prism') {
    // Raw Prism, as a partner would run it next to their code: the ×prism goals are against this peer.
    const cli = path.join(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js');
    const args = [cli, 'mock', path.join(ROOT, 'openapi.yaml'), '--host', '127.0.0.1', '--port', String(port)];
    child = await startChild(args, {}, probe, { timeoutMs: 120_000 });
  } else if (name === 'mock') {
    // What `npm run mock` runs, without npm in between (so the pid is the mock's own).
    const env = { PORT: String(port), HOST: '127.0.0.1' };
    child = await startChild([path.join(ROOT, 'scripts/mock/mock.ts')], env, probe, { timeoutMs: 120_000 });
  } else {
    child = await startChild([path.join(ROOT, 'bench', `${name}.ts`)], { PORT: String(port) }, probe);
  }
  return target(name, child, url, STATIC_SEED);
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

/**
 * A checkout of `ref` beside the working tree (sharing its node_modules), so one run measures the server before
 * and after a change; removed with the target.
 */
async function checkoutOf(ref: string): Promise<{ root: string; remove(): Promise<void> }> {
  const root = await mkdtemp(path.join(tmpdir(), 'storefront-bench-ref-'));
  execFileSync('git', ['worktree', 'add', '--detach', '--force', root, ref], { cwd: ROOT, stdio: 'ignore' });
  await symlink(path.join(ROOT, 'node_modules'), path.join(root, 'node_modules'));
  return {
    root,
    async remove() {
      execFileSync('git', ['worktree', 'remove', '--force', root], { cwd: ROOT, stdio: 'ignore' });
    },
  };
}

/**
 * The Node flags `npm start` gives the server in the checkout at `root` (its package.json's `start` script,
 * `node <flags> server/src/server.ts`), so that every server target runs as it would be started, at its own ref.
 */
export async function startFlags(root: string): Promise<string[]> {
  const { scripts } = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const flags = /^node\s+(.*?)\s*server\/src\/server\.ts$/.exec(scripts.start ?? '')?.[1];
  if (flags === undefined)
    throw new Error(`the start script of ${root}/package.json is not node [flags] server/src/server.ts`);
  return flags.split(/\s+/).filter((flag) => flag.length > 0);
}

/**
 * The reference server as `npm start` runs it by default (no NODE_ENV, no LOG_LEVEL: the report says what that
 * means), with a rate limit high enough never to answer 429.
 */
async function startServer(name: TargetName, options: StartOptions): Promise<Target> {
  const [server, ref] = name.split('@') as [ServerName, string | undefined];
  const postgres = server === 'server-postgres';
  const port = await getPort({ host: '127.0.0.1' });
  const url = `http://127.0.0.1:${port}`;
  const adminToken = `bench_admin_${randomBytes(16).toString('hex')}`;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'storefront-bench-'));
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const checkout = ref ? await checkoutOf(ref) : undefined;
  const env: NodeJS.ProcessEnv = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_TOKEN: adminToken,
    RATE_LIMIT_MAX: '1000000',
    RATE_LIMIT_WINDOW_SECONDS: '60',
    NODE_ENV: '',
    LOG_LEVEL: '',
    DATABASE_URL: postgres ? options.databaseUrl : '',
    DATABASE_SCHEMA: postgres ? schema : '',
  };
  const cleanup = async () => {
    await rm(dataDir, { recursive: true, force: true });
    if (postgres) await dropSchema(options.databaseUrl, schema);
    await checkout?.remove();
  };
  let child: Child | undefined;
  try {
    const root = checkout?.root ?? ROOT;
    child = await startChild(
      [...(await startFlags(root)), ...(options.nodeFlags ?? []), path.join(root, 'server/src/server.ts')],
      env,
      url + PROBE_PATH,
      { cwd: root },
    );
    const access = postgres
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
  return name.startsWith('server-') ? startServer(name, options) : startStatic(name as 'prism');
}
