// The two targets the client is tested against, started as a partner starts them: the reference server as a
// child process (`npm start` runs `node server/src/server.ts`) on its own data, and the mock (`npm run mock`).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import getPort from 'get-port';
import createClient from 'openapi-fetch';
import type { paths } from '../../generated/openapi-wire.ts';
import { startMock } from '../../scripts/mock/mock.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ADMIN_TOKEN = 'client-test-admin-token-0123456789';
/** Start-up and shutdown of a target, for hook timeouts: a busy machine needs far more than vitest's 10 s. */
export const STARTUP_MS = 120_000;

/** Credentials of a partner: a base URL, a key and the store it may act on. */
export interface Partner {
  baseUrl: string;
  apiKey: string;
  storeId: string;
}

export interface ServerTarget {
  baseUrl: string;
  /** A fresh store and a full-scope API key for it, through the admin API. */
  newPartner(): Promise<Partner>;
  stop(): Promise<void>;
}

async function untilListening(baseUrl: string, child: ChildProcess, output: string[]): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}):\n${output.join('')}`);
    try {
      await fetch(`${baseUrl}/api/v1/products`);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/** `node server/src/server.ts` on a temporary DATA_DIR and a free port; `env` adds to (or overrides) the defaults. */
export async function startServerProcess(env: Record<string, string> = {}): Promise<ServerTarget> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sf-client-'));
  const port = await getPort({ host: '127.0.0.1' });
  const baseUrl = `http://127.0.0.1:${port}`;
  const output: string[] = [];
  const child = spawn(process.execPath, [path.join(ROOT, 'server/src/server.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      ADMIN_TOKEN,
      LOG_LEVEL: 'warn',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => output.push(chunk.toString('utf8')));
  await untilListening(baseUrl, child, output);

  const admin = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
  return {
    baseUrl,
    async newPartner() {
      const store = await admin.POST('/admin/stores', { body: { name: 'Loja do Cliente', currency: 'BRL' } });
      if (!store.data) throw new Error(`createStore answered ${store.response.status}: ${JSON.stringify(store.error)}`);
      const storeId = store.data.data.store.id;
      const key = await admin.POST('/admin/api-keys', { body: { storeIds: [storeId] } });
      if (!key.data) throw new Error(`createApiKey answered ${key.response.status}: ${JSON.stringify(key.error)}`);
      return { baseUrl, apiKey: key.data.data.apiKey.key, storeId };
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface MockTarget {
  /** Credentials in the contract's formats (the mock keeps no keys or stores). */
  partner: Partner;
  stop(): Promise<void>;
}

/** `npm run mock` (Prism behind the contract-faithful proxy) on a free port. */
export async function startMockTarget(): Promise<MockTarget> {
  const mock = await startMock({ port: 0 });
  return {
    partner: {
      baseUrl: mock.url,
      apiKey: 'sf_live_hzgbDAHF8zwp3D6jOiyY65F6dgRmmAnkAv8K6ZRwc74',
      storeId: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
    },
    stop: () => mock.close(),
  };
}

export interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A loopback webhook receiver that keeps every delivery as received (raw body, headers). */
export async function webhookReceiver() {
  const deliveries: Delivery[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      deliveries.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    deliveries,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
