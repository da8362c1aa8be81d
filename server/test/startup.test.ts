// `npm start` as a newcomer meets it: a real child process, configured only through its environment.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { type AddressInfo, connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import getPort from 'get-port';
import createClient from 'openapi-fetch';
import { afterAll, describe, expect, it } from 'vitest';
import type { components, paths } from '../../generated/openapi.ts';
import {
  REFUSED_BY_NODE,
  rawAnswer,
  refusal,
  UNKNOWN_EXPECTATION,
  untilClosed,
} from '../../scripts/test-helpers/raw-http.ts';
import { REPO_ROOT } from './child-server.ts';
import { withoutDefaults } from './fixture.ts';
import { tempDir } from './temp-dir.ts';

type ProductCreate = components['schemas']['ProductCreate'];

/** Only what an operator would set: no ADMIN_TOKEN unless given, nothing inherited from the test run. */
function serverEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), LOG_LEVEL: 'info', ...env };
}

interface Started {
  process: ChildProcess;
  port: number;
  /** Everything written to stdout up to the end of the banner. */
  stdout: string;
}

/** Starts `node server/src/server.ts` and waits for its banner (its last line is the reset hint). */
async function start(env: Record<string, string>): Promise<Started> {
  const port = await getPort({ host: '127.0.0.1' });
  const child = spawn(process.execPath, ['server/src/server.ts'], {
    cwd: REPO_ROOT,
    env: serverEnv({ PORT: String(port), ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (/^Reset/m.test(stdout)) resolve();
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before its banner:\n${stdout}${stderr}`)));
  });
  return { process: child, port, stdout };
}

/** A client of the started server with an API key. */
const withKey = (started: Started, key: string) =>
  createClient<paths>({ baseUrl: `http://127.0.0.1:${started.port}`, headers: { authorization: `Bearer ${key}` } });

/** SIGTERM: the server closes its store, logs that it stopped and exits 0. */
async function stop(started: Started): Promise<void> {
  let after = '';
  started.process.stdout?.on('data', (chunk: Buffer) => {
    after += chunk.toString();
  });
  const exited = once(started.process, 'exit');
  started.process.kill('SIGTERM');
  expect(await exited).toEqual([0, null]);
  expect(after).toContain('"msg":"stopped"');
}

/** A command of the banner, exactly as printed: the `count` lines (joined by backslashes) after its heading. */
function printedCommand(banner: string, heading: RegExp, count: number): string {
  const lines = banner.split('\n');
  const at = lines.findIndex((line) => heading.test(line));
  expect(at, banner).toBeGreaterThan(-1);
  return lines.slice(at + 1, at + 1 + count).join('\n');
}

/** The banner's key-minting command (two lines). */
const mintCommand = (banner: string) => printedCommand(banner, /^Mint an API key/, 2);
/** The banner's "Try it" command on the demo store (four lines). */
const tryItCommand = (banner: string) => printedCommand(banner, /^Try it:$/, 4);

/** Runs a printed command in a POSIX shell and returns what it wrote. */
function run(command: string): string {
  const result = spawnSync('sh', ['-c', command], { encoding: 'utf8' });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout;
}

/** Runs the printed command in a POSIX shell and returns the key from its answer. */
function mintWith(command: string): string {
  const answer = JSON.parse(run(command)) as { success: boolean; data: { apiKey: { key: string } } };
  expect(answer.success).toBe(true);
  return answer.data.apiKey.key;
}

describe('npm start on one DATA_DIR, started twice', { timeout: 60_000 }, () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kit-startup-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const tokenFile = path.join(dataDir, 'admin-token');
  const demoKeyFile = path.join(dataDir, 'demo-api-key');

  it('keeps its admin token, says where it listens, and mints a working key with the printed command each time', async () => {
    const first = await start({ DATA_DIR: dataDir });
    const token = readFileSync(tokenFile, 'utf8').trim();
    try {
      expect(statSync(tokenFile).mode & 0o777).toBe(0o600);
      expect(first.stdout).toContain(`Storefront reference server listening on http://127.0.0.1:${first.port}\n`);
      expect(first.stdout).toContain(`Admin token: created now, kept in ${tokenFile}\n`);
      expect(first.stdout).toContain('Demo store created (first start):');
      expect(first.stdout).toContain(`  API key:    kept in ${demoKeyFile}\n`);
      expect(statSync(demoKeyFile).mode & 0o777).toBe(0o600);
      const demoKey = readFileSync(demoKeyFile, 'utf8').trim();
      const storeId = /X-Store-Id: ([0-9a-f-]{36})/.exec(first.stdout)?.[1] as string;
      // stdout is the log too (the banner and pino's JSON lines): it holds neither secret.
      expect(first.stdout).not.toContain(token);
      expect(first.stdout).not.toContain(demoKey);
      expect(JSON.parse(run(tryItCommand(first.stdout)))).toMatchObject({
        success: true,
        data: { product: { name: 'Camiseta Básica', price: 49.9 } },
      });

      const key = mintWith(mintCommand(first.stdout));
      const created = await withKey(first, key).POST('/api/v1/products', {
        params: { header: { 'X-Store-Id': storeId } },
        body: withoutDefaults<ProductCreate>({ name: 'Camiseta Sport', type: 'DIGITAL', price: 49.9 }),
      });
      expect(created.response.status).toBe(201);
    } finally {
      await stop(first);
    }

    const second = await start({ DATA_DIR: dataDir });
    try {
      expect(readFileSync(tokenFile, 'utf8').trim()).toBe(token);
      expect(second.stdout).toContain(`Admin token: kept in ${tokenFile}\n`);
      expect(second.stdout).not.toContain(token);
      expect(second.stdout).not.toContain('Demo store created');
      const key = mintWith(mintCommand(second.stdout));
      const storeId = /Mint an API key \(every scope\) for store ([0-9a-f-]{36})/.exec(second.stdout)?.[1] as string;
      const listed = await withKey(second, key).GET('/api/v1/products', {
        params: { header: { 'X-Store-Id': storeId } },
      });
      expect(listed.response.status).toBe(200);
      expect(listed.data?.data.products.map((product) => product.name).sort()).toEqual([
        'Camiseta Básica',
        'Camiseta Sport',
      ]);
    } finally {
      await stop(second);
    }
  });

  it('npm run reset: refuses while the server runs and without --yes off a terminal, then deletes the store (after a kill -9 too) but keeps the admin token', async () => {
    const reset = (...args: string[]) =>
      spawnSync(process.execPath, ['server/src/reset.ts', ...args], {
        cwd: REPO_ROOT,
        env: serverEnv({ DATA_DIR: dataDir }),
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    const token = readFileSync(tokenFile, 'utf8');
    const running = await start({ DATA_DIR: dataDir });
    try {
      const busy = reset('--yes');
      expect(busy.status).toBe(1);
      expect(busy.stderr).toBe(
        `The embedded store in ${dataDir} is open in another process (a server still running?): stop it, then run \`DATA_DIR='${dataDir}' npm run reset\` again. Nothing deleted.\n`,
      );
      // The store is whole and still the server's: its demo product is read back through the API.
      const storeId = /Mint an API key \(every scope\) for store ([0-9a-f-]{36})/.exec(running.stdout)?.[1] as string;
      const listed = await withKey(running, readFileSync(demoKeyFile, 'utf8').trim()).GET('/api/v1/products', {
        params: { header: { 'X-Store-Id': storeId } },
      });
      expect(listed.response.status).toBe(200);
      expect(listed.data?.data.products.map((product) => product.name)).toContain('Camiseta Básica');
    } finally {
      // Killed, not stopped: a server that dies with the store open leaves no lock that would refuse the reset.
      const exited = once(running.process, 'exit');
      running.process.kill('SIGKILL');
      await exited;
    }
    const refused = reset();
    expect(refused.status).toBe(1);
    expect(refused.stderr).toBe(
      `Not confirmed: run \`DATA_DIR='${dataDir}' npm run reset -- --yes\` to delete the embedded store in ${dataDir}.\n`,
    );
    expect(statSync(path.join(dataDir, 'storefront.sqlite')).isFile()).toBe(true);

    const done = reset('--yes');
    expect(done.status, done.stderr).toBe(0);
    expect(() => statSync(path.join(dataDir, 'storefront.sqlite'))).toThrow(/ENOENT/);
    expect(() => statSync(path.join(dataDir, 'demo-api-key'))).toThrow(/ENOENT/);
    expect(readFileSync(tokenFile, 'utf8')).toBe(token);

    const fresh = await start({ DATA_DIR: dataDir });
    try {
      expect(fresh.stdout).toContain('Demo store created (first start):');
      expect(fresh.stdout).toContain(`Admin token: kept in ${tokenFile}\n`);
      mintWith(mintCommand(fresh.stdout));
    } finally {
      await stop(fresh);
    }
  });
});

describe('npm start with a configuration it cannot use', { timeout: 60_000 }, () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kit-badconfig-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  const cases: [string, { given: Record<string, string>; want: RegExp }][] = [
    [
      'an unreachable DATABASE_URL',
      {
        given: { DATABASE_URL: 'postgres://nope' },
        want: /^DATABASE_URL: cannot use PostgreSQL at nope:5432 \(.*ENOTFOUND/,
      },
    ],
    [
      'an unwritable DATA_DIR (no hang)',
      { given: { DATA_DIR: '/proc/nope' }, want: /^DATA_DIR=\/proc\/nope is not a writable directory/ },
    ],
    ['a PORT that is no number', { given: { PORT: 'abc' }, want: /^Invalid configuration: PORT must be an integer/ }],
    ['a HOST that is a URL', { given: { HOST: 'http://localhost' }, want: /^Invalid configuration: HOST must be/ }],
    [
      'a HOST not of this machine',
      { given: { HOST: '192.0.2.1' }, want: /^HOST 192\.0\.2\.1 is not an address of this machine \(EADDRNOTAVAIL\)/ },
    ],
  ];
  it.each(cases)(
    '%s: exits 1 with one line naming the variable and the fix, no stack trace',
    (_name, { given, want }) => {
      const result = spawnSync(process.execPath, ['server/src/server.ts'], {
        cwd: REPO_ROOT,
        env: serverEnv({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent', ...given }),
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(result.signal).toBeNull();
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(want);
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    },
  );

  it('a PORT already taken names PORT', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    try {
      const result = spawnSync(process.execPath, ['server/src/server.ts'], {
        cwd: REPO_ROOT,
        env: serverEnv({ DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'silent' }),
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toBe(
        `PORT ${port} is already in use on 127.0.0.1 (EADDRINUSE): stop what holds it, or set PORT to a free one\n`,
      );
    } finally {
      holder.close();
    }
  });
});

describe('connection deadlines', { timeout: 60_000 }, () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kit-deadlines-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('answers what Node refuses before the app in the error envelope with an X-Request-Id, then closes', async () => {
    const server = await start({ DATA_DIR: dataDir, HTTP_HEADERS_TIMEOUT_MS: '300', HTTP_REQUEST_TIMEOUT_MS: '600' });
    try {
      const refused = [
        ...REFUSED_BY_NODE,
        ['GET /api/v1/products HTTP/1.1\r\nHost: x\r\n', refusal(408, 'VALIDATION_ERROR', 'prazo')] as const,
      ];
      for (const [request, answer] of refused) expect(await rawAnswer(server.port, request), request).toEqual(answer);
      // An expectation other than 100-continue is ignored, as RFC 9110 allows: the request is served.
      expect(await rawAnswer(server.port, UNKNOWN_EXPECTATION)).toMatchObject({
        status: 401,
        body: { error: { code: 'AUTH_API_KEY_REQUIRED' } },
      });
    } finally {
      await stop(server);
    }
  });

  it('sends 100 Continue to a request that expects it only once its key is accepted', async () => {
    const dataDir = tempDir('kit-continue-');
    const server = await start({ DATA_DIR: dataDir });
    try {
      const key = readFileSync(path.join(dataDir, 'demo-api-key'), 'utf8').trim();
      const storeId = /X-Store-Id: ([0-9a-f-]{36})/.exec(server.stdout)?.[1] ?? '';
      const body = '{"name":"Adesivo","type":"DIGITAL","price":10}';
      /** The answer to a create that waits for `100 Continue` before it sends its body. */
      const create = async (authorization: string) => {
        const socket = connect(server.port, '127.0.0.1');
        socket.write(
          `POST /api/v1/products HTTP/1.1\r\nHost: x\r\n${authorization}X-Store-Id: ${storeId}\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`,
        );
        socket.once('data', (first: Buffer) => {
          if (first.toString().startsWith('HTTP/1.1 100 ')) socket.write(body);
        });
        return untilClosed(socket);
      };
      // Without a key: the 401 at once, no invitation to upload.
      expect(await create('')).toMatch(/^HTTP\/1\.1 401 /);
      expect(await create(`Authorization: Bearer ${key}\r\n`)).toMatch(
        /^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 201 /,
      );
    } finally {
      await stop(server);
    }
  });

  it('closes an idle kept-alive connection', async () => {
    const server = await start({ DATA_DIR: dataDir, HTTP_KEEP_ALIVE_TIMEOUT_MS: '1000' });
    try {
      const idle = connect(server.port, '127.0.0.1');
      idle.write('GET /health-of-nothing HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n');
      const answered = await untilClosed(idle);
      expect(answered).toMatch(/^HTTP\/1\.1 404 /);
      expect(answered).toMatch(/keep-alive: timeout=1\r\n/i);
    } finally {
      await stop(server);
    }
  });
});

describe('the access log under load', { timeout: 60_000 }, () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'kit-access-log-'));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('writes one line per request, all of them, the last ones when SIGTERM stops it', async () => {
    // Unauthenticated reads: each is answered (401) and logged without a key to set up; the failed-auth throttle
    // is raised so that none is refused before the end.
    const server = await start({ DATA_DIR: dataDir, AUTH_FAILURE_LIMIT: '1000000' });
    let logged = '';
    server.process.stdout?.on('data', (chunk: Buffer) => {
      logged += chunk.toString();
    });
    const url = `http://127.0.0.1:${server.port}/api/v1/products`;
    const statuses: number[] = [];
    // 40 at a time, so that lines pile up while the destination is still writing the ones before.
    for (let batch = 0; batch < 50; batch++) {
      const answers = await Promise.all(Array.from({ length: 40 }, () => fetch(url)));
      statuses.push(...answers.map((answer) => answer.status));
    }
    await stop(server);
    expect(new Set(statuses)).toEqual(new Set([401]));
    const lines = logged.split('\n').filter((line) => line.includes('"msg":"request"'));
    expect(lines).toHaveLength(2_000);
    expect(new Set(lines.map((line) => (JSON.parse(line) as { reqId: string }).reqId)).size).toBe(2_000);
  });

  it('keeps up with the requests it answers: 20,000 at 50 connections, nearly every line written as the last is answered', async () => {
    const server = await start({ DATA_DIR: dataDir, AUTH_FAILURE_LIMIT: '1000000' });
    // Whole lines only: a chunk of the pipe may end inside one.
    let written = 0;
    let partial = '';
    server.process.stdout?.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop() ?? '';
      written += lines.filter((line) => line.includes('"msg":"request"')).length;
    });
    // autocannon, not fetch: it loads the server as fast as it answers, so that each turn of the server's event
    // loop answers many requests, as under a partner's CI suite.
    const result = await autocannon({
      url: `http://127.0.0.1:${server.port}/api/v1/products`,
      connections: 50,
      amount: 20_000,
    });
    const writtenWhenAnswered = written;
    await stop(server);
    expect(result.statusCodeStats).toEqual({ '401': { count: 20_000 } });
    // The lines of the last requests may still be in the pipe: a few hundred at most. A destination that wrote at
    // most 2 KiB a turn had written about a sixth of them.
    expect(writtenWhenAnswered).toBeGreaterThanOrEqual(18_000);
    expect(written).toBe(20_000);
  });
});
