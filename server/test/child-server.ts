import { type ChildProcess, spawn } from 'node:child_process';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
export const CHILD_ADMIN_TOKEN = 'durability-admin-token-0123456789';

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

export interface Child {
  process: ChildProcess;
  baseUrl: string;
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `npm start` as an operator runs it: a separate process configured only through its environment. */
export async function spawnServer(env: Record<string, string>): Promise<Child> {
  const port = await freePort();
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
