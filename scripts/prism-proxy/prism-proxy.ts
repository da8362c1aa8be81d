// `node scripts/prism-proxy/prism-proxy.ts`: the conformance suite through Prism's validating proxy
// (`prism proxy openapi.yaml <server> --errors`) in front of the reference server (SQLite). A recorder between
// Prism and the server sees exactly the requests Prism found valid (with --errors Prism answers invalid ones
// itself) and the server's answers. Every refusal among them is classified by what in the contract states it;
// `unstated` must stay empty: a request the contract's validator accepts is refused only for a stated reason; and
// `serverErrors` too: no request the suite sends may answer 5xx.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import getPort from 'get-port';
import YAML from 'yaml';
import { runSuite } from '../../conformance-tests/lib/suite.ts';
import { RATE_LIMIT } from '../../conformance-tests/test-helpers/targets.ts';
import { isUnstorableTextReason } from '../../lib/storable-text.ts';
import { malformedJsonReason } from '../../lib/validation-reasons.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SPEC = path.join(ROOT, 'openapi.yaml');
const PRISM = path.join(ROOT, 'node_modules/.bin/prism');

export interface Refusal {
  method: string;
  url: string;
  status: number;
  code: string;
  /** Why the contract states it: `rule <id>`, `schema <keyword-reason>`, `status <code>`, or `unstated ...`. */
  basis: string;
}

export interface ProxyRun {
  /** Requests Prism found valid and forwarded. */
  forwarded: number;
  /** Their answers by status. */
  byStatus: Record<string, number>;
  /** Every 4xx the server gave to a forwarded request, with what states it. */
  refusals: Refusal[];
  /** The refusals whose basis the contract does not state. */
  unstated: Refusal[];
  /** Every 5xx the server gave to a forwarded request: a failure of the server, whatever the contract allows. */
  serverErrors: Omit<Refusal, 'basis'>[];
}

/** Every rule id the contract names (`x-rule`, `x-rules`). */
function contractRuleIds(): Set<string> {
  const ids = new Set<string>();
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) for (const item of node) walk(item);
    if (node === null || typeof node !== 'object') return;
    const object = node as Record<string, unknown>;
    for (const id of [object['x-rule'], ...(Array.isArray(object['x-rules']) ? object['x-rules'] : [])]) {
      if (typeof id === 'string') ids.add(id);
    }
    for (const value of Object.values(object)) walk(value);
  };
  walk(YAML.parse(readFileSync(SPEC, 'utf8')));
  return ids;
}

interface Detail {
  location?: string;
  path?: string;
  reason?: string;
  rule?: string;
}

// The statuses the contract gives a stated, non-schema meaning (auth, existence, uniqueness, references, limits).
const STATED_STATUSES = new Set([401, 403, 404, 405, 409, 413, 415, 422, 429]);
// A validator detail: the keyword's Portuguese reason and Ajv's message in parentheses (http/error-handler.ts).
const SCHEMA_REASON = /^[^()]+ \(.+\)$/;

function basisOf(status: number, body: string, rules: Set<string>): string {
  let parsed: { error?: { code?: string; details?: Detail[] } } | undefined;
  try {
    parsed = JSON.parse(body);
  } catch {
    return 'unstated: not the error envelope';
  }
  const code = parsed?.error?.code ?? '';
  if (STATED_STATUSES.has(status)) return `status ${status} ${code}`;
  if (status !== 400 || code !== 'VALIDATION_ERROR') return `unstated: ${status} ${code}`;
  const details = parsed?.error?.details ?? [];
  const bases = details.map((detail) => {
    if (detail.rule) return rules.has(detail.rule) ? `rule ${detail.rule}` : `unstated: rule ${detail.rule}`;
    if (detail.location === 'header') return `header ${detail.path}`;
    if (detail.path === '' && detail.reason?.startsWith(malformedJsonReason(''))) return 'malformed JSON';
    // The contract's "Text and nesting" rule (info), stated in prose: no schema keyword carries it.
    if (detail.reason && isUnstorableTextReason(detail.reason)) return 'rule text-and-nesting';
    if (detail.reason && SCHEMA_REASON.test(detail.reason)) return `schema ${detail.reason.split(' (')[0]}`;
    return `unstated: ${detail.location} ${detail.path} ${detail.reason}`;
  });
  return bases.find((basis) => basis.startsWith('unstated')) ?? bases[0] ?? 'unstated: no details';
}

/** Passes requests to `target` and hands every exchange to `record`. */
async function recorder(target: string, record: (refusal: Omit<Refusal, 'basis'> & { body: string }) => void) {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const upstream = http.request(
        `${target}${req.url}`,
        { method: req.method, headers: req.headers, agent: false },
        (answer) => {
          const body: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => body.push(chunk));
          answer.on('end', () => {
            const text = Buffer.concat(body).toString();
            const code = /"code":"([A-Z_]+)"/.exec(text)?.[1] ?? '';
            record({ method: req.method ?? '', url: req.url ?? '', status: answer.statusCode ?? 0, code, body: text });
            res.writeHead(answer.statusCode ?? 502, answer.headers).end(Buffer.concat(body));
          });
        },
      );
      upstream.on('error', (error) => res.writeHead(502).end(error.message));
      upstream.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

/** Spawns `command` and resolves once its output matches `ready`. */
async function started(command: string, args: string[], env: NodeJS.ProcessEnv, ready: RegExp): Promise<ChildProcess> {
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${path.basename(command)} exited (${code}):\n${output}`)));
  });
  return child;
}

async function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/**
 * The reference server on SQLite with a rate limit the suite never reaches: rate limiting is not what this run
 * is about, and waiting out windows would only make it slow.
 */
async function startServer() {
  const port = await getPort({ host: '127.0.0.1' });
  const adminToken = `prism-${randomBytes(12).toString('hex')}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'prism-proxy-'));
  const env = {
    ...process.env,
    PORT: String(port),
    DATA_DIR: dataDir,
    ADMIN_TOKEN: adminToken,
    // The limit of every conformance target: the suite reads it from RateLimit-Policy and spends a key's window to
    // see the 429, so it must be small enough to spend.
    RATE_LIMIT_MAX: String(RATE_LIMIT.max),
    RATE_LIMIT_WINDOW_SECONDS: String(RATE_LIMIT.windowSeconds),
    // The suite sends wrong credentials on purpose; from one address they would soon trip the failed-auth throttle.
    AUTH_FAILURE_LIMIT: '1000000',
    // Every response is checked against the contract, as in every conformance run.
    VALIDATE_RESPONSES: 'true',
    LOG_LEVEL: 'silent',
    DATABASE_URL: '',
    DATABASE_SCHEMA: '',
  };
  const child = await started(process.execPath, [path.join(ROOT, 'server/src/server.ts')], env, /listening on/);
  return {
    url: `http://127.0.0.1:${port}`,
    adminToken,
    async stop() {
      await stopped(child);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function startPrismProxy(upstream: string) {
  const port = await getPort({ host: '127.0.0.1' });
  const args = ['proxy', SPEC, upstream, '--errors', '-h', '127.0.0.1', '-p', String(port)];
  const child = await started(PRISM, args, process.env, /Prism is listening/);
  return { url: `http://127.0.0.1:${port}`, stop: () => stopped(child) };
}

export async function runThroughPrism(): Promise<ProxyRun> {
  const rules = contractRuleIds();
  const server = await startServer();
  const exchanges: (Omit<Refusal, 'basis'> & { body: string })[] = [];
  const tap = await recorder(server.url, (exchange) => exchanges.push(exchange));
  const prism = await startPrismProxy(tap.url);
  try {
    await runSuite({
      baseUrl: prism.url,
      adminToken: server.adminToken,
      profile: 'server',
      concurrency: 16,
    });
  } finally {
    await prism.stop();
    tap.close();
    await server.stop();
  }
  const byStatus: Record<string, number> = {};
  for (const { status } of exchanges) byStatus[status] = (byStatus[status] ?? 0) + 1;
  const refusals = exchanges
    .filter(({ status }) => status >= 400 && status < 500)
    .map(({ body, ...exchange }) => ({ ...exchange, basis: basisOf(exchange.status, body, rules) }));
  return {
    forwarded: exchanges.length,
    byStatus,
    refusals,
    unstated: refusals.filter((r) => r.basis.startsWith('unstated')),
    serverErrors: exchanges.filter(({ status }) => status >= 500).map(({ body: _body, ...exchange }) => exchange),
  };
}

/** `{ basis: count }`, most frequent first. */
export function tally(refusals: Refusal[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const { basis } of refusals) counts.set(basis, (counts.get(basis) ?? 0) + 1);
  return Object.fromEntries([...counts].sort((a, b) => b[1] - a[1]));
}

if (import.meta.main) {
  const run = await runThroughPrism();
  console.log(`forwarded by Prism: ${run.forwarded}; by status: ${JSON.stringify(run.byStatus)}`);
  console.log(`server refusals of forwarded requests: ${run.refusals.length}`);
  console.log(JSON.stringify(tally(run.refusals), null, 2));
  for (const refusal of run.unstated)
    console.log(`UNSTATED ${refusal.method} ${refusal.url} → ${refusal.status} ${refusal.basis}`);
  for (const failure of run.serverErrors)
    console.log(`SERVER ERROR ${failure.method} ${failure.url} → ${failure.status} ${failure.code}`);
  process.exitCode = run.unstated.length === 0 && run.serverErrors.length === 0 ? 0 : 1;
}
