// Targets for the vitest project `conformance`: the reference server and the mock started as child processes
// (black boxes on a free port), and a proxy that breaks one rule of a real server on purpose.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import getPort from 'get-port';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface Target {
  url: string;
  /** The reference server's embedded store file, for what a test reads behind the API. */
  storeFile?: string;
  adminToken?: string;
  rateLimitMax?: number;
  rateLimitWindowSeconds?: number;
  stop(): Promise<void>;
}

async function waitFor(child: ChildProcess, pattern: RegExp, what: string, timeoutMs = 60_000): Promise<void> {
  const output: string[] = [];
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not start in time:\n${output.join('')}`)), timeoutMs);
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString());
      if (pattern.test(output.join(''))) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited (${code}) before listening:\n${output.join('')}`));
    });
  });
}

function stopper(child: ChildProcess, cleanup: () => Promise<void> | void = () => {}) {
  return async () => {
    if (child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
    await cleanup();
  };
}

export const RATE_LIMIT = { max: 300, windowSeconds: 60 };

/**
 * `node server/src/server.ts` on a free port: the embedded store in a temp DATA_DIR, or a fresh PostgreSQL schema.
 * `rateLimit` replaces the small window the 429 checks use (a run with one key for everything needs a large one).
 */
export async function startServer(engine: 'sqlite' | 'postgres', rateLimit = RATE_LIMIT): Promise<Target> {
  const port = await getPort({ host: '127.0.0.1' });
  const adminToken = `conformance-${randomBytes(12).toString('hex')}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'conformance-'));
  const schema = `conformance_${randomBytes(6).toString('hex')}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    ADMIN_TOKEN: adminToken,
    RATE_LIMIT_MAX: String(rateLimit.max),
    RATE_LIMIT_WINDOW_SECONDS: String(rateLimit.windowSeconds),
    // The suite sends wrong credentials to every operation on purpose, all from one address.
    AUTH_FAILURE_LIMIT: '1000000',
    LOG_LEVEL: 'silent',
    // Conformance runs prove the server's own responses too, whatever `npm start` defaults to.
    VALIDATE_RESPONSES: 'true',
    DATABASE_URL: '',
    DATABASE_SCHEMA: '',
  };
  if (engine === 'postgres') {
    env.DATABASE_URL = process.env.CONFORMANCE_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
    env.DATABASE_SCHEMA = schema;
  }
  const child = spawn(process.execPath, [path.join(ROOT, 'server/src/server.ts')], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await waitFor(child, /listening on/, `the reference server (${engine})`);
  return {
    url: `http://127.0.0.1:${port}`,
    ...(engine === 'sqlite' ? { storeFile: path.join(dataDir, 'storefront.sqlite') } : {}),
    adminToken,
    rateLimitMax: rateLimit.max,
    rateLimitWindowSeconds: rateLimit.windowSeconds,
    stop: stopper(child, async () => {
      rmSync(dataDir, { recursive: true, force: true });
      if (engine === 'postgres') {
        const { default: pg } = await import('pg');
        const client = new pg.Client({ connectionString: env.DATABASE_URL });
        await client.connect();
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await client.end();
      }
    }),
  };
}

/** `npm run mock` (Prism behind its proxy) on a free port. */
export async function startMock(): Promise<Target> {
  const port = await getPort({ host: '127.0.0.1' });
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts/mock/mock.ts')], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await waitFor(child, /mock: .* on http/, 'the mock');
  // the proxy may print its address before Prism answers: wait until a request goes through
  for (let i = 0; i < 100; i++) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/products`);
      if (res.status !== 502) break;
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { url: `http://127.0.0.1:${port}`, stop: stopper(child) };
}

export interface Rewrite {
  /** Which request to break (method and path of the real request). */
  matches(method: string, url: string): boolean;
  /** The response to send instead. */
  rewrite(response: { status: number; headers: http.IncomingHttpHeaders; body: string }): {
    status: number;
    body: string;
  };
}

/** A proxy in front of a real target that rewrites the responses one rule picks, and passes everything else. */
export async function breakingProxy(
  target: string,
  rule: Rewrite,
): Promise<{ url: string; hits: () => number; close(): Promise<void> }> {
  let hits = 0;
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host') headers.set(k, v);
    const upstream = await fetch(`${target}${req.url}`, {
      method: req.method,
      headers,
      ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
    });
    let status = upstream.status;
    let body = await upstream.text();
    const outHeaders: Record<string, string> = {};
    upstream.headers.forEach((value, key) => {
      if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection'].includes(key))
        outHeaders[key] = value;
    });
    if (rule.matches(req.method ?? 'GET', req.url ?? '/')) {
      const changed = rule.rewrite({ status, headers: req.headers, body });
      if (changed.status !== status || changed.body !== body) hits += 1;
      status = changed.status;
      body = changed.body;
    }
    res.writeHead(status, outHeaders);
    res.end(status === 204 ? undefined : body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    hits: () => hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
