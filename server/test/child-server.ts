import { type ChildProcess, spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import getPort from 'get-port';
import createClient from 'openapi-fetch';
import { expect } from 'vitest';
import type { paths } from '../../generated/openapi.ts';
import type { Api } from './fixture.ts';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
export const CHILD_ADMIN_TOKEN = 'durability-admin-token-0123456789';

export interface Child {
  process: ChildProcess;
  baseUrl: string;
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `npm start` as an operator runs it: a separate process configured only through its environment. */
export async function spawnServer(env: Record<string, string>): Promise<Child> {
  const port = await getPort({ host: '127.0.0.1' });
  const child = spawn(process.execPath, ['server/src/server.ts'], {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? tmpdir(),
      PORT: String(port),
      ADMIN_TOKEN: CHILD_ADMIN_TOKEN,
      LOG_LEVEL: 'silent',
      VALIDATE_RESPONSES: 'true',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('listening on')) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    exited.then(({ code }) => reject(new Error(`server exited (${code}) before listening:\n${output}`)));
  });
  return { process: child, baseUrl: `http://127.0.0.1:${port}`, exited };
}

/** Stops a server process with SIGTERM and expects a clean exit. */
export async function stopServer(child: Child): Promise<void> {
  child.process.kill('SIGTERM');
  expect(await child.exited).toEqual({ code: 0, signal: null });
}

/** The admin API of a server process. */
export const adminAt = (child: Child) =>
  createClient<paths>({ baseUrl: child.baseUrl, headers: { authorization: `Bearer ${CHILD_ADMIN_TOKEN}` } });

/** A client of a server process acting with `headers`. */
export const clientAt = (child: Child, headers: Record<string, string>): Api =>
  createClient({ baseUrl: child.baseUrl, headers }) as Api;

export interface ChildTenant {
  storeId: string;
  apiKeyId: string;
  key: string;
  /** The headers that act as the store with every scope (the same on every restart). */
  headers: Record<string, string>;
}

/** A new store on the server process and an API key for it with every scope, through the admin API. */
export async function tenantOn(child: Child, name: string): Promise<ChildTenant> {
  const admin = adminAt(child);
  const store = await admin.POST('/admin/stores', { body: { name, currency: 'BRL' } });
  expect(store.response.status).toBe(201);
  const storeId = store.data?.data.store.id ?? '';
  const created = await admin.POST('/admin/api-keys', { body: { storeIds: [storeId] } });
  expect(created.response.status).toBe(201);
  const { id: apiKeyId = '', key = '' } = created.data?.data.apiKey ?? {};
  return { storeId, apiKeyId, key, headers: { authorization: `Bearer ${key}`, 'x-store-id': storeId } };
}
