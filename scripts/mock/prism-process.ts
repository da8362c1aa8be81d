// Prism itself, as the mock runs it behind its proxy: a child process of `prism mock` on a free local port.
import { spawn } from 'node:child_process';
import path from 'node:path';
import getPort from 'get-port';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PRISM_CLI = path.join(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js');

/** A port the host lets a server listen on now (a server may take it before the caller does). */
export const freePort = (host: string): Promise<number> => getPort({ host });

async function startPrism(spec: string, host: string, port: number, log: (line: string) => void) {
  const args = [PRISM_CLI, 'mock', spec, '--host', host, '--port', String(port), '--cors=false'];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line.trim()) continue;
        output.push(line);
        log(line);
        if (line.includes('Prism is listening')) resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`Prism exited (${code}) before listening:\n${output.join('\n')}`)));
  });
  return child;
}

/** Times Prism is started on another free port when the one found free was taken before Prism could bind it. */
const PRISM_PORT_ATTEMPTS = 3;

/**
 * Prism on a port found free: Prism binds it a second or so later, and another process may have taken it
 * meanwhile (the test suites start servers in parallel), so a port in use is replaced by another.
 */
export async function startPrismOnFreePort(
  spec: string,
  host: string,
  log: (line: string) => void,
  nextPort: (host: string) => Promise<number> = freePort,
) {
  for (let attempt = 1; ; attempt += 1) {
    const port = await nextPort(host);
    try {
      return { prism: await startPrism(spec, host, port, log), port };
    } catch (error) {
      if (attempt >= PRISM_PORT_ATTEMPTS || !(error as Error).message.includes('EADDRINUSE')) throw error;
    }
  }
}
