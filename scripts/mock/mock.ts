// `npm run mock`: Prism (static mode, documented examples) behind a small proxy that
// keeps every answer inside the contract.
//
// Prism already answers with the spec's own 400/401 examples when an operation
// documents them. Where it does not, Prism invents an RFC 7807 problem+json body
// (its 401 for a failed security check, its 422/415 for an invalid request, its 404
// for an unknown route). The proxy replaces exactly those with the contract's
// shared response (components/responses Unauthorized, BadRequest, NotFound) and its
// first named example, read from the spec at start-up. It restates nothing: no
// message, code or status lives in this file. Everything else passes through.
//
//   node scripts/mock/mock.ts [spec]      (env: PORT=4010, HOST=127.0.0.1, OPENAPI_SPEC)
import { type ChildProcess, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parse } from 'yaml';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PRISM_CLI = path.join(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js');

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** A contract response the proxy can answer with. */
export interface ContractAnswer {
  status: number;
  body: Json;
}

/** What the proxy answers instead of Prism's own problem+json, keyed by the failure. */
export interface ContractErrors {
  unauthorized: ContractAnswer;
  badRequest: ContractAnswer;
  notFound: ContractAnswer;
}

export interface MockServer {
  url: string;
  prismUrl: string;
  close(): Promise<void>;
}

export interface MockOptions {
  spec?: string;
  host?: string;
  port?: number;
  /** Receives Prism's log lines (default: dropped). */
  log?: (line: string) => void;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Follows a local `$ref` (`#/components/...`) until it reaches a value. */
function deref(doc: JsonObject, node: Json | undefined): Json | undefined {
  let current = node;
  for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops++) {
    if (hops > 20 || !current.$ref.startsWith('#/')) throw new Error(`Cannot follow $ref ${current.$ref}`);
    current = current.$ref
      .slice(2)
      .split('/')
      .map((part) => decodeURIComponent(part).replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce<Json | undefined>((at, key) => (isObject(at) ? at[key] : undefined), doc);
  }
  return current;
}

/** The first documented example body of a response object (named examples first). */
export function firstExample(doc: JsonObject, response: Json | undefined): Json | undefined {
  const resolved = deref(doc, response);
  if (!isObject(resolved) || !isObject(resolved.content)) return undefined;
  for (const media of Object.values(resolved.content)) {
    if (!isObject(media)) continue;
    if (isObject(media.examples)) {
      for (const example of Object.values(media.examples)) {
        const value = deref(doc, example);
        if (isObject(value) && 'value' in value) return value.value;
      }
    }
    if ('example' in media) return media.example;
  }
  return undefined;
}

function contractAnswer(doc: JsonObject, name: string): ContractAnswer {
  const responses = isObject(doc.components) ? doc.components.responses : undefined;
  const response = isObject(responses) ? responses[name] : undefined;
  const body = firstExample(doc, response);
  if (body === undefined) {
    throw new Error(`The mock needs #/components/responses/${name} with a named example in the spec.`);
  }
  // The status is the one the example itself states (meta.status), as the envelope carries it.
  const meta = isObject(body) ? body.meta : undefined;
  const status = isObject(meta) && typeof meta.status === 'number' ? meta.status : undefined;
  if (status === undefined) {
    throw new Error(`The example of #/components/responses/${name} has no meta.status.`);
  }
  return { status, body };
}

export async function loadContractErrors(specPath: string): Promise<ContractErrors> {
  const doc = parse(await readFile(specPath, 'utf8')) as JsonObject;
  return {
    unauthorized: contractAnswer(doc, 'Unauthorized'),
    badRequest: contractAnswer(doc, 'BadRequest'),
    notFound: contractAnswer(doc, 'NotFound'),
  };
}

interface PrismReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/**
 * Decides what the client gets for one of Prism's replies: the reply itself, or the
 * contract's answer when Prism made up an error of its own.
 */
export function reconcile(reply: PrismReply, errors: ContractErrors): ContractAnswer | undefined {
  const contentType = String(reply.headers['content-type'] ?? '');
  const problem = contentType.startsWith('application/problem+json');
  let violations: { location?: string[]; code?: string | number }[] = [];
  try {
    violations = JSON.parse(String(reply.headers['sl-violations'] ?? '[]'));
  } catch {
    violations = [];
  }
  const requestViolations = violations.filter((v) => v.location?.[0] === 'request');

  // Prism's own problem+json says what failed in its `type` (…/prism/errors#TYPE).
  let problemType = '';
  if (problem) {
    try {
      problemType = String(JSON.parse(reply.body.toString('utf8')).type ?? '').replace(/^.*#/, '');
    } catch {
      problemType = '';
    }
  }

  let wanted: ContractAnswer | undefined;
  if (problemType === 'UNAUTHORIZED' || requestViolations.some((v) => v.code === 401)) wanted = errors.unauthorized;
  else if (['UNPROCESSABLE_ENTITY', 'INVALID_CONTENT_TYPE'].includes(problemType) || requestViolations.length > 0)
    wanted = errors.badRequest;
  // Prism's router found no operation for the path: the contract's 404.
  else if (/^NO_(PATH|RESOURCE|SERVER)_/.test(problemType)) wanted = errors.notFound;
  if (!wanted) return undefined;
  // Prism already answered with the operation's own documented response: keep it.
  if (reply.status === wanted.status && !problem) return undefined;
  return wanted;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-type']);

function send(res: http.ServerResponse, reply: PrismReply, answer: ContractAnswer | undefined): void {
  const headers: http.OutgoingHttpHeaders = {};
  for (const [key, value] of Object.entries(reply.headers)) {
    if (!HOP_BY_HOP.has(key) && value !== undefined) headers[key] = value;
  }
  if (!answer) {
    if (reply.headers['content-type']) headers['content-type'] = reply.headers['content-type'];
    res.writeHead(reply.status, headers).end(reply.body);
    return;
  }
  const body = Buffer.from(JSON.stringify(answer.body));
  headers['content-type'] = 'application/json';
  res.writeHead(answer.status, headers).end(body);
}

async function freePort(host: string): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function startPrism(
  spec: string,
  host: string,
  port: number,
  log: (line: string) => void,
): Promise<ChildProcess> {
  const child = spawn(process.execPath, [PRISM_CLI, 'mock', spec, '--host', host, '--port', String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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

export async function startMock(options: MockOptions = {}): Promise<MockServer> {
  const spec = path.resolve(ROOT, options.spec ?? process.env.OPENAPI_SPEC ?? 'openapi.yaml');
  const host = options.host ?? '127.0.0.1';
  const errors = await loadContractErrors(spec);
  const prismPort = await freePort(host);
  const prism = await startPrism(spec, host, prismPort, options.log ?? (() => {}));

  // Requests are buffered (small JSON) so that one whose kept-alive connection Prism closed at that very moment
  // (ECONNRESET before any answer) can be sent again on a fresh connection instead of failing with 502.
  const forward = (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse, retry: boolean) => {
    const upstream = http.request(
      {
        host,
        port: prismPort,
        method: req.method,
        path: req.url,
        headers: req.headers,
        ...(retry ? {} : { agent: false }),
      },
      (prismRes) => {
        const chunks: Buffer[] = [];
        prismRes.on('data', (chunk: Buffer) => chunks.push(chunk));
        prismRes.on('end', () => {
          const reply = { status: prismRes.statusCode ?? 502, headers: prismRes.headers, body: Buffer.concat(chunks) };
          send(res, reply, reconcile(reply, errors));
        });
      },
    );
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (retry && error.code === 'ECONNRESET') return forward(req, body, res, false);
      res.writeHead(502, { 'content-type': 'text/plain' }).end(`mock: Prism is unreachable: ${error.message}`);
    });
    upstream.end(body);
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => forward(req, Buffer.concat(chunks), res, true));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4010, host, resolve);
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://${host}:${port}`,
    prismUrl: `http://${host}:${prismPort}`,
    async close() {
      await new Promise((resolve) => server.close(resolve));
      if (prism.exitCode === null) {
        const exited = new Promise((resolve) => prism.once('exit', resolve));
        prism.kill('SIGTERM');
        await exited;
      }
    },
  };
}

if (import.meta.main) {
  const mock = await startMock({
    spec: process.argv[2],
    host: process.env.HOST,
    port: process.env.PORT ? Number(process.env.PORT) : undefined,
    log: (line) => console.log(line),
  });
  console.log(`mock: contract-faithful mock on ${mock.url} (Prism behind it on ${mock.prismUrl})`);
  const stop = (): void => {
    void mock.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
