// The package as a partner gets it: `npm run build`, `npm pack`, install the tarball into a project outside the
// repository (offline: the client's dependencies are packed from this repository's node_modules), compile a
// consumer with tsc (strict) and run it against the server and against the mock.
import { execFile, type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import type { components } from '../../generated/openapi-wire.ts';
import { type Json, readContract } from '../../lib/contract.ts';
import { type Partner, STARTUP_MS, startMockTarget, startServerProcess } from './targets.ts';

const execFileAsync = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '../..');
const CLIENT = path.join(ROOT, 'client');
const NODE_MODULES = path.join(ROOT, 'node_modules');
const TSC = path.join(NODE_MODULES, 'typescript/bin/tsc');

type Product = components['schemas']['Product'];
interface ConsumerOutput {
  created: Product;
  read: Product;
  listed: string[];
  event: string;
  webhookProduct: Product | null;
}

/** The environment without npm's own variables, so a nested npm is not steered by the outer `npm test`. */
const cleanEnv = () => Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('npm_')));

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = cleanEnv()): string {
  const result: SpawnSyncReturns<string> = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: 240_000 });
  if (result.status !== 0) {
    throw new Error(
      `${command} ${args.join(' ')} (in ${cwd}) failed: ${result.status}\n${result.stdout}\n${result.stderr}`,
    );
  }
  return result.stdout;
}

/** `npm pack` of folders into `destination` (one npm run for all); the tarballs' paths. */
function pack(folders: string[], destination: string): string[] {
  const args = ['pack', '--json', '--ignore-scripts', '--pack-destination', destination, ...folders];
  const packed: { filename: string }[] = JSON.parse(run('npm', args, ROOT));
  return packed.map(({ filename }) => path.join(destination, filename));
}

/** Names of the packages `names` need, themselves included, from the repository's node_modules. */
function closure(names: string[], seen = new Set<string>()): Set<string> {
  for (const name of names) {
    if (seen.has(name)) continue;
    seen.add(name);
    const manifest = JSON.parse(readFileSync(path.join(NODE_MODULES, name, 'package.json'), 'utf8'));
    closure(Object.keys(manifest.dependencies ?? {}), seen);
  }
  return seen;
}

describe('the packed client', () => {
  const work = mkdtempSync(path.join(tmpdir(), 'sf-client-pack-'));
  const stops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const stop of stops) await stop();
    rmSync(work, { recursive: true, force: true });
  }, STARTUP_MS);

  it('installs from its tarball outside the repository, compiles with tsc and works against the server and the mock', {
    timeout: 300_000,
  }, async () => {
    expect(path.relative(ROOT, work).startsWith('..')).toBe(true);
    run('npm', ['run', 'build'], CLIENT);
    const tarballs = path.join(work, 'tarballs');
    mkdirSync(tarballs);
    const [client = ''] = pack([CLIENT], tarballs);
    const manifest = JSON.parse(readFileSync(path.join(CLIENT, 'package.json'), 'utf8'));
    // The consumer's own dev dependency (node:http types) and what the client depends on, from this repository.
    const dependencies = pack(
      [...closure([...Object.keys(manifest.dependencies), '@types/node'])].map((name) => path.join(NODE_MODULES, name)),
      tarballs,
    );

    const consumer = path.join(work, 'consumer');
    mkdirSync(consumer);
    writeFileSync(
      path.join(consumer, 'package.json'),
      JSON.stringify({ name: 'partner-app', private: true, type: 'module' }),
    );
    for (const file of ['main.ts', 'tsconfig.json']) {
      copyFileSync(path.join(import.meta.dirname, 'consumer', file), path.join(consumer, file));
    }
    run(
      'npm',
      ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', client, ...dependencies],
      consumer,
    );
    const installed = JSON.parse(
      readFileSync(path.join(consumer, 'node_modules/storefront-api-client/package.json'), 'utf8'),
    );
    expect(installed).toMatchObject({ name: manifest.name, version: manifest.version });
    run(process.execPath, [TSC, '-p', consumer], consumer);

    // Asynchronous: the mock's proxy runs in this process and must keep answering while the consumer runs.
    const consume = async (target: 'server' | 'mock', partner: Partner): Promise<ConsumerOutput> => {
      const env = {
        ...cleanEnv(),
        STOREFRONT_URL: partner.baseUrl,
        STOREFRONT_API_KEY: partner.apiKey,
        STOREFRONT_STORE_ID: partner.storeId,
      };
      const { stdout } = await execFileAsync(process.execPath, [path.join(consumer, 'out/main.js'), target], {
        cwd: consumer,
        env,
        timeout: 60_000,
      });
      return JSON.parse(stdout);
    };

    const server = await startServerProcess();
    stops.push(server.stop);
    const onServer = await consume('server', await server.newPartner());
    expect(onServer.created).toMatchObject({ name: 'Camiseta do Parceiro', type: 'DIGITAL', price: 19.9 });
    expect(onServer.read).toEqual({ ...onServer.created, variants: [] });
    expect(onServer.listed).toEqual([onServer.created.id]);
    expect(onServer.event).toBe('PRODUCT_CREATED');
    expect(onServer.webhookProduct).toEqual(onServer.created);

    const mock = await startMockTarget();
    stops.push(mock.stop);
    const onMock = await consume('mock', mock.partner);
    const contract = readContract();
    const example = (urlPath: string, method: string, status: string) =>
      contract.firstExample(
        contract.pointer(`/paths/${urlPath.replaceAll('/', '~1')}/${method}/responses/${status}`),
      ) as { data: Record<string, Json> };
    expect(onMock.created).toEqual(example('/api/v1/products', 'post', '201').data.product);
    expect(onMock.read).toEqual(example('/api/v1/products/{productId}', 'get', '200').data.product);
    const page = example('/api/v1/products', 'get', '200').data.products as Product[];
    expect(onMock.listed).toEqual(page.map((p) => p.id));
    expect(onMock.event).toBe('PRODUCT_CREATED');
    expect(onMock.webhookProduct).toEqual(onMock.created);
  });
});
