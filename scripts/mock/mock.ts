// `npm run mock`: Prism (static mode, documented examples) behind a small proxy that keeps every answer inside
// the contract and says what is wrong with a request.
//
// The proxy answers itself, before Prism, in the server's order of checks: what Node's HTTP server refuses before
// any listener (lib/node-refusals.ts) and a missing Host, in the envelope; a path none of the contract's, read as
// sent (no `..` resolved, no escape decoded) → its 404; a method the path lacks → the
// contract's 405 with the server's `Allow` (a HEAD is asked as the path's GET and sent without the body);
// credentials missing or not of the form of the operation's security scheme (its `bearerFormat`) → the
// operation's documented 401; an `X-Store-Id` missing or not a uuid → the contract's 400 naming it, alone; a
// JSON body in another charset than UTF-8 or under a Content-Encoding → the contract's 415; a body over the
// contract's `x-max-body-bytes` → its 413 (read to the end, kept no further); a JSON
// body that does not parse or is not UTF-8 → the contract's 400 naming the body, with the headers the operation's
// 400 requires; so is text no store can keep, or a query integer not in decimal digits, alone. The rest of what
// the contract refuses and Prism accepts (narrower-rules.ts) is asked of Prism as the operation's 400, the proxy's
// details leading Prism's, in the order the server lists them; a body past the contract's bounds is sent to Prism
// cut as the server cuts it (lib/body-bounds.ts), and no error names more details than `x-max-error-details`. Of
// Prism's replies it replaces: its own
// problem+json errors with the contract's shared responses (Unauthorized, BadRequest, NotFound); the `details` of
// any 400 with Prism's own violations of the request (`sl-violations`, not passed on); an envelope's
// `meta.timestamp` with the time of the answer; and it drops `Idempotent-Replayed`, since a stateless mock never
// replays. Prism's CORS headers are off: the server sends
// none. A request Prism does not answer within the time-out gets the contract's 500 `INTERNAL_ERROR`. No message,
// code or status of the contract lives in these files: they are read from the spec at start-up.
//
//   node scripts/mock/mock.ts [--port N] [--host H] [spec]
//     (env: PORT=4010, HOST=127.0.0.1, OPENAPI_SPEC, MOCK_TIMEOUT_MS=10000, MOCK_VERBOSE=1 to see Prism's own log)

import { isUtf8 } from 'node:buffer';
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { bodyCutter } from '../../lib/body-bounds.ts';
import { charsetOf, UTF8_BOM } from '../../lib/content-type.ts';
import { ContractDocument, isObject, maxBodyBytes, type Operation, requestIdRule } from '../../lib/contract.ts';
import { contractAjv } from '../../lib/contract-ajv.ts';
import { selectedBranches } from '../../lib/discriminated-branches.ts';
import {
  answerOnSocket,
  HOST_REQUIRED,
  inviteBody,
  inviteBodyLater,
  lacksHost,
  REQUEST_INCOMPLETE,
  refuseInEnvelope,
} from '../../lib/node-refusals.ts';
import { originForm } from '../../lib/origin-form.ts';
import { MAX_BODY_DEPTH } from '../../lib/storable-text.ts';
import { malformedJsonReason } from '../../lib/validation-reasons.ts';
import {
  answeredNow,
  type ContractAnswer,
  type ContractErrors,
  exampleAnswer,
  hasAnswerTime,
  internalError,
  internalErrorMessage,
  loadContractErrors,
  missedExampleOfInvalid,
  type PrismReply,
  type ProxyDetails,
  parseJson,
  reconcile,
  refusalAnswer,
  requiredHeaders,
  withDetails,
} from './answers.ts';
import { credentialProblem, type FindOperation, operationRouter } from './credentials.ts';
import { type AllowOf, allowOf } from './methods.ts';
import {
  type BodyValidator,
  bodyDetails,
  bodyValidators,
  type NarrowerRules,
  narrowerRules,
} from './narrower-rules.ts';
import { preferenceFor } from './preferences.ts';
import { startPrismOnFreePort } from './prism-process.ts';
import { storeIdProblem } from './store-id.ts';
import type { Detail } from './violations.ts';

export type { ContractAnswer, ContractErrors } from './answers.ts';
export { reconcile } from './answers.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** How long a request may take before the mock answers 500 itself (Prism never needs more than milliseconds). */
export const DEFAULT_TIMEOUT_MS = 10_000;
/**
 * Prism's headers no server sends: `Idempotent-Replayed` (a stateless mock never replays a request, so it never
 * says it did) and `sl-violations` (Prism's account of the request, which the proxy turns into `details`).
 */
const NOT_THE_SERVERS = new Set(['idempotent-replayed', 'sl-violations']);

export interface MockServer {
  url: string;
  close(): Promise<void>;
}

export interface MockOptions {
  spec?: string;
  host?: string;
  port?: number;
  /** How long a request may take before the mock answers the contract's 500 (default 10 s). */
  timeoutMs?: number;
  /** Receives Prism's log lines (default: dropped). */
  log?: (line: string) => void;
}

/** The Content-Type of every JSON answer, as the server labels its own. */
const JSON_TYPE = 'application/json; charset=utf-8';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-type']);

function send(res: http.ServerResponse, reply: PrismReply | undefined, own: ContractAnswer | undefined): void {
  if (res.headersSent || res.writableEnded) return;
  const headers: http.OutgoingHttpHeaders = {};
  for (const [key, value] of Object.entries(reply?.headers ?? {})) {
    if (!HOP_BY_HOP.has(key) && !NOT_THE_SERVERS.has(key) && value !== undefined) headers[key] = value;
  }
  Object.assign(headers, own?.headers);
  // The request's own id (handler), not Prism's static example.
  headers['x-request-id'] = res.getHeader('x-request-id');
  const answer = own ?? (reply && restamped(reply));
  if (!answer && reply) {
    const json = isJson(reply.headers['content-type']);
    const type = json ? JSON_TYPE : reply.headers['content-type'];
    if (type) headers['content-type'] = type;
    // Framed by its length, as the server frames every answer, rather than chunked.
    headers['content-length'] = reply.body.length;
    res.writeHead(reply.status, headers).end(reply.body);
    return;
  }
  if (!answer) return;
  const body = Buffer.from(JSON.stringify(answeredNow(answer.body)));
  headers['content-type'] = JSON_TYPE;
  headers['content-length'] = body.length;
  res.writeHead(answer.status, headers).end(body);
}

/** Prism's reply as an answer when it is an envelope of the example's fixed time (answeredNow); else sent as is. */
function restamped(reply: PrismReply): ContractAnswer | undefined {
  const json = isJson(reply.headers['content-type']) ? parseJson(reply.body) : undefined;
  return json !== undefined && hasAnswerTime(json) ? { status: reply.status, body: json } : undefined;
}

const isJson = (contentType: string | undefined) => /^application\/([\w.-]+\+)?json\b/i.test(contentType ?? '');

/**
 * Whether a request's body is sent otherwise than as UTF-8 JSON as it is (the contract's "Text and nesting"): of
 * another media type, several or none to an operation that takes a JSON body (with a body or without), or a JSON body
 * labelled with another charset or under a Content-Encoding. The server answers it 415 before it reads the body.
 */
function notSentAsIs(req: http.IncomingMessage, operation: Operation): boolean {
  const contentType = req.headers['content-type'];
  const json = /^application\/json\b/i.test(contentType ?? '') && !contentType?.includes(',');
  if (!json) return operation.raw.requestBody !== undefined;
  const hasBody = req.headers['transfer-encoding'] !== undefined || req.headers['content-length'] !== undefined;
  if (!hasBody) return false;
  const charset = charsetOf(contentType ?? '');
  // An empty Content-Encoding names no coding, as `identity` does: the server reads the body as sent.
  const encoding = req.headers['content-encoding']?.trim().toLowerCase() || 'identity';
  return (charset !== undefined && charset !== 'utf-8') || encoding !== 'identity';
}

/**
 * A request's JSON body, read once: its value (undefined when it has none) and whether its bytes were UTF-8, the
 * detail refusing it, or too large to keep (over the contract's `x-max-body-bytes`).
 */
type JsonBody = { value: unknown; notUtf8?: true } | { refused: Detail } | { tooLarge: true };

/**
 * Reads a request's body whole, as the server's parser does before it answers, but keeps no more than `limit`
 * bytes of it: `undefined` when it is longer (declared or sent), so no body, however long, fills the mock's memory.
 */
function readBody(req: http.IncomingMessage, limit: number, done: (body: Buffer | undefined) => void): void {
  const chunks: Buffer[] = [];
  let length = 0;
  let tooLarge = Number(req.headers['content-length']) > limit;
  req.on('data', (chunk: Buffer) => {
    length += chunk.length;
    tooLarge ||= length > limit;
    if (!tooLarge) chunks.push(chunk);
  });
  req.on('end', () => done(tooLarge ? undefined : Buffer.concat(chunks)));
}

/**
 * The server reads a JSON body as its parser does: what does not parse is malformed; what parses but is not UTF-8
 * is refused later, after the path's and the query's escapes (narrower-rules.ts), as the server refuses it.
 */
function jsonBody(req: http.IncomingMessage, body: Buffer): JsonBody {
  if (body.length === 0 || !isJson(req.headers['content-type'])) return { value: undefined };
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch (error) {
    return { refused: { location: 'body', path: '', reason: malformedJsonReason((error as Error).message) } };
  }
  // Decoding put U+FFFD in place of each bad sequence, silently (the contract: stored as sent, or refused).
  return isUtf8(body) ? { value } : { value, notUtf8: true };
}

/**
 * A JSON body without the UTF-8 byte order mark it may start with, which the server's parser skips (iconv-lite's
 * decoding) and JSON.parse and Prism would not; its Content-Length follows.
 */
function withoutBom(req: http.IncomingMessage, body: Buffer): Buffer {
  if (!isJson(req.headers['content-type']) || !body.subarray(0, 3).equals(UTF8_BOM)) return body;
  const rest = body.subarray(3);
  if (req.headers['content-length'] !== undefined) req.headers['content-length'] = String(rest.length);
  return rest;
}

/** A body cut to the contract's bounds (lib/body-bounds.ts), for Prism to judge as cut; its Content-Length follows. */
function asCut(req: http.IncomingMessage, value: unknown): Buffer {
  const cut = Buffer.from(JSON.stringify(value));
  if (req.headers['content-length'] !== undefined) req.headers['content-length'] = String(cut.length);
  return cut;
}

interface Upstream {
  host: string;
  port: number;
  contract: ContractDocument;
  errors: ContractErrors;
  findOperation: FindOperation;
  allowOf: AllowOf;
  /** What the contract refuses and Prism accepts (narrower-rules.ts). */
  narrowerRules: NarrowerRules;
  /** The contract's own validator of each operation's body (narrower-rules.ts). */
  bodyValidator: BodyValidator;
  /** A body's discriminated `oneOf`s judged by their selected branch alone (lib/discriminated-branches.ts). */
  inSelectedBranches: ReturnType<typeof selectedBranches>;
  /** What a body holds past the contract's bounds cut, as the server cuts it (lib/body-bounds.ts). */
  cutBody: ReturnType<typeof bodyCutter>;
  /** The contract's `x-max-body-bytes`: a longer body is answered 413 once the credentials pass (none: no limit). */
  maxBodyBytes: number;
  /** Whether a client's X-Request-Id is echoed (undefined: the contract has no rule, never). */
  isRequestId: ((id: string) => boolean) | undefined;
  timeoutMs: number;
}

/**
 * What the proxy answers from a request's headers alone, before its body is invited (`Expect: 100-continue`) or
 * read, in the server's order: no Host, a path or method the contract lacks, wrong credentials, an `X-Store-Id`
 * missing or not of its format. Then a preference no response meets (preferences.ts); a body not sent as JSON is
 * answered after the invitation, as the server's body parser answers it.
 */
function answerBeforeBody(
  up: Upstream,
  req: http.IncomingMessage,
  path: string,
  operation: Operation | undefined,
): ContractAnswer | undefined {
  if (lacksHost(req)) return withDetails(up.errors.badRequest, [HOST_REQUIRED]);
  // A path of the contract without this method: the server's 405, before any credential is looked at; a path that
  // is none of the contract's, as sent (Prism would resolve `..` and escapes, or take `/api/v1/products/` for
  // getProductById without an id), its 404.
  const allow = operation ? undefined : up.allowOf(path);
  if (allow) return { ...up.errors.methodNotAllowed, headers: { allow } };
  if (!operation) return up.errors.routeNotFound;
  if (credentialProblem(up.contract, operation, req.headers)) {
    const responses = isObject(operation.raw.responses) ? operation.raw.responses : {};
    return exampleAnswer(up.contract, responses['401']) ?? up.errors.unauthorized;
  }
  const storeId = storeIdProblem(up.contract, operation, req.headers);
  return storeId ? withDetails(up.errors.badRequest, [storeId]) : undefined;
}

/** What the proxy answers of a request's body itself: over the size limit, or not JSON it can read. */
function answerOfBody(up: Upstream, req: http.IncomingMessage, json: JsonBody): ContractAnswer | undefined {
  // Only a JSON body is read, whatever the operation, as on the server: another (a GET's text) is never read.
  const { payloadTooLarge } = up.errors;
  if (payloadTooLarge && 'tooLarge' in json && isJson(req.headers['content-type'])) return payloadTooLarge;
  return 'refused' in json ? withDetails(up.errors.badRequest, [json.refused]) : undefined;
}

/**
 * A request's headers as Prism is to read them, once the proxy has nothing to answer itself: `prefer`, the one
 * preference the mock honours (preferences.ts), or none; and a JSON body's Content-Type plain, since the server
 * reads UTF-8 JSON whatever else it says, where Prism's HTTP layer answered a 500 of its own to `application/json;`.
 */
function headersForPrism(req: http.IncomingMessage, prefer: string | undefined): void {
  if (prefer) req.headers.prefer = prefer;
  else delete req.headers.prefer;
  if (isJson(req.headers['content-type'])) req.headers['content-type'] = 'application/json';
  // An expectation the server ignores (RFC 9110 allows it): Prism's HTTP layer would answer it 417.
  delete req.headers.expect;
}

/** No body for Prism: the request's framing of one taken off, nothing to send. */
function withoutBody(req: http.IncomingMessage): Buffer {
  for (const name of ['content-length', 'content-type', 'transfer-encoding']) delete req.headers[name];
  return Buffer.alloc(0);
}

/**
 * Asks Prism and answers from its reply. `refused` are what the contract refuses and Prism accepts
 * (narrower-rules.ts): Prism is asked for the operation's documented 400 (`Prefer: code=400`, so the answer has
 * the headers the contract gives it) and they lead its details.
 */
function forward(
  up: Upstream,
  req: http.IncomingMessage,
  body: Buffer,
  res: http.ServerResponse,
  operation: Operation | undefined,
  own: ProxyDetails,
  retry = true,
) {
  const { refused } = own;
  if (refused.length > 0) req.headers.prefer = 'code=400';
  // An operation without a request body ignores one, as the server does; Prism would refuse it without a detail.
  const sent = operation && operation.raw.requestBody === undefined ? withoutBody(req) : body;
  // Requests are buffered (small JSON) so that one whose kept-alive connection Prism closed at that very moment
  // (ECONNRESET before any answer) can be sent again on a fresh connection.
  const upstream = http.request(
    {
      host: up.host,
      port: up.port,
      method: req.method,
      path: req.url,
      headers: req.headers,
      ...(retry ? {} : { agent: false }),
    },
    (prismRes) => {
      const chunks: Buffer[] = [];
      prismRes.on('data', (chunk: Buffer) => chunks.push(chunk));
      prismRes.on('end', () => {
        const reply = { status: prismRes.statusCode ?? 500, headers: prismRes.headers, body: Buffer.concat(chunks) };
        if (missedExampleOfInvalid(reply, req.headers.prefer)) {
          // Asked again for the 400 it answers an invalid request with, whose violations the client gets.
          req.headers.prefer = 'code=400';
          return forward(up, req, body, res, operation, own, retry);
        }
        send(res, reply, reconcile(reply, up.errors, operation, own));
      });
    },
  );
  upstream.on('error', (error: NodeJS.ErrnoException) => {
    if (retry && error.code === 'ECONNRESET' && !res.writableEnded)
      return forward(up, req, body, res, operation, own, false);
    send(res, undefined, internalError(up.errors, internalErrorMessage(up.contract, 'mock-unreachable')));
  });
  res.once('close', () => upstream.destroy());
  upstream.end(sent);
}

/** Sends one of the proxy's own answers, with the headers the operation's response of its status requires. */
function answer(up: Upstream, res: http.ServerResponse, operation: Operation | undefined, own: ContractAnswer): void {
  for (const [name, value] of Object.entries(requiredHeaders(up.contract, operation, own.status))) {
    res.setHeader(name, value);
  }
  send(res, undefined, own);
}

function handler(up: Upstream): http.RequestListener {
  return (req, res) => {
    // An absolute-form target is its path and query, for routing and for Prism, as on the server.
    req.url = originForm(req.url ?? '/');
    let bodyRead = false;
    // Never a request left unanswered, whatever Prism (or a client sending half a body: Node's own 408) does.
    const timer = setTimeout(() => {
      res.shouldKeepAlive = false;
      res.once('finish', () => req.socket.destroy());
      const timedOut = internalErrorMessage(up.contract, 'mock-timeout', { timeoutMs: up.timeoutMs });
      send(
        res,
        undefined,
        bodyRead ? internalError(up.errors, timedOut) : refusalAnswer(up.errors, REQUEST_INCOMPLETE),
      );
    }, up.timeoutMs);
    res.once('close', () => clearTimeout(timer));
    // Every response has an X-Request-Id: the client's own when the contract allows it, as the server does.
    const incoming = req.headers['x-request-id'];
    res.setHeader('x-request-id', typeof incoming === 'string' && up.isRequestId?.(incoming) ? incoming : randomUUID());
    // RFC 9110: the auth scheme is case-insensitive; Prism only knows `Bearer`
    const authorization = req.headers.authorization;
    if (authorization) req.headers.authorization = authorization.replace(/^bearer /i, 'Bearer ');
    // Routed by the path as sent, as the server routes it: no `..` resolved, no escape decoded.
    const path = req.url.split('?')[0] ?? '/';
    // A HEAD is the path's GET without its body, as on the server: Prism is asked the GET, and Node sends no body.
    const headAsGet = req.method === 'HEAD' ? up.findOperation('GET', path) : undefined;
    if (headAsGet) req.method = 'GET';
    const operation = headAsGet ?? up.findOperation(req.method ?? 'GET', path);
    // Answered once the bytes at hand are parsed, as the server's middleware (promises) answers: a body Node's
    // parser refuses in them is its 400 first (the socket then answered and closed: lib/node-refusals.ts), and a
    // request pipelined behind this one waits for this answer.
    const answerSoon = (own: ContractAnswer) =>
      queueMicrotask(() => {
        if (req.socket.writable) answer(up, res, operation, own);
      });
    const early = answerBeforeBody(up, req, path, operation);
    if (early || !operation) return answerSoon(early ?? up.errors.routeNotFound);
    const preference = preferenceFor(up.contract, operation, req.headers.prefer);
    if ('refused' in preference) return answerSoon(withDetails(up.errors.badRequest, [preference.refused]));
    inviteBody(req, res);
    const { unsupportedMediaType } = up.errors;
    if (unsupportedMediaType && notSentAsIs(req, operation)) return answerSoon(unsupportedMediaType);
    readBody(req, up.maxBodyBytes, (sent) => {
      bodyRead = true;
      const read = sent && withoutBom(req, sent);
      const json: JsonBody = read ? jsonBody(req, read) : { tooLarge: true };
      const cut =
        'value' in json && up.cutBody(operation.operationId, up.contract.jsonBodySchema(operation), json.value);
      const body = cut ? asCut(req, json.value) : read;
      const url = new URL(req.url ?? '/', 'http://mock');
      const ofBody = answerOfBody(up, req, json);
      const refusal =
        !ofBody && 'value' in json
          ? up.narrowerRules(operation, url, req.headers, json.value, json.notUtf8 === true)
          : undefined;
      const own = ofBody ?? (refusal?.alone ? withDetails(up.errors.badRequest, refusal.details) : undefined);
      if (own) return answer(up, res, operation, own);
      headersForPrism(req, preference.prefer);
      forward(up, req, body ?? withoutBody(req), res, operation, {
        refused: refusal?.details ?? [],
        bodyDetails: () => ('value' in json ? bodyDetails(up.bodyValidator, operation, json.value) : []),
        inBranches: (details) =>
          'value' in json ? up.inSelectedBranches(up.contract.jsonBodySchema(operation), json.value, details) : details,
      });
    });
  };
}

export async function startMock(options: MockOptions = {}): Promise<MockServer> {
  const spec = path.resolve(ROOT, options.spec ?? process.env.OPENAPI_SPEC ?? 'openapi.yaml');
  const host = options.host ?? '127.0.0.1';
  const contract = ContractDocument.load(spec);
  const log = options.log ?? (() => {});
  const findOperation = operationRouter(contract);
  // One ajv with the contract in it, for every check of a body the mock makes itself.
  const ajv = contractAjv(contract);
  const bodyValidator = bodyValidators(contract, ajv);
  // Read from the spec before Prism starts: a spec the mock cannot serve stops it with no Prism left running.
  const up: Upstream = {
    host,
    port: 0,
    contract,
    errors: loadContractErrors(contract),
    findOperation,
    allowOf: allowOf(contract, findOperation),
    narrowerRules: narrowerRules(contract, bodyValidator),
    bodyValidator,
    inSelectedBranches: selectedBranches(contract, () => ajv),
    cutBody: bodyCutter(contract, MAX_BODY_DEPTH),
    maxBodyBytes: maxBodyBytes(contract) ?? Number.POSITIVE_INFINITY,
    isRequestId: requestIdRule(contract),
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  };
  const started = await startPrismOnFreePort(spec, host, log);
  let prism = started.prism;
  let closing = false;
  up.port = started.port;
  // Should Prism's process end (no request should make it, but one did), it is started again on a new port; the
  // requests meanwhile get the contract's 500 `INTERNAL_ERROR`.
  const supervise = (child: ChildProcess): void => {
    child.once('exit', (code, signal) => {
      if (closing) return;
      console.error(`mock: Prism exited (${signal ?? code}); starting it again`);
      startPrismOnFreePort(spec, host, log).then(
        (next) => {
          prism = next.prism;
          up.port = next.port;
          if (closing) prism.kill('SIGKILL');
          else supervise(prism);
        },
        (error: Error) => console.error(`mock: Prism could not be started again: ${error.message}`),
      );
    });
  };
  supervise(prism);
  const listener = handler(up);
  // A missing Host is the proxy's to answer, in the envelope (answerBeforeBody), as the server does.
  const server = http.createServer(
    {
      requireHostHeader: false,
      // Headers not received whole within the mock's time-out are Node's 408 (lib/node-refusals.ts), looked for
      // every second, as on the server; Node's own default waits a minute, checked every 30 s.
      headersTimeout: up.timeoutMs,
      connectionsCheckingInterval: 1_000,
    },
    listener,
  );
  // `Expect: 100-continue`: Node would invite the body at once; the handler does once the headers pass.
  inviteBodyLater(server, listener);
  refuseInEnvelope(server, listener, (socket, refusal) => {
    const { status, body } = refusalAnswer(up.errors, refusal);
    answerOnSocket(socket, status, JSON.stringify(answeredNow(body)), randomUUID());
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 4010, host, resolve);
    });
  } catch (error) {
    closing = true;
    prism.kill('SIGKILL');
    throw error;
  }
  const { port } = server.address() as AddressInfo;

  // Prism does not outlive the mock's process (short of a SIGKILL of the mock, which nothing can catch)
  const killPrism = () => {
    if (prism.exitCode === null && prism.signalCode === null) prism.kill('SIGKILL');
  };
  process.once('exit', killPrism);

  return {
    url: `http://${host}:${port}`,
    async close() {
      closing = true;
      server.closeAllConnections();
      const closed = new Promise((resolve) => server.close(resolve));
      if (prism.exitCode === null && prism.signalCode === null) {
        const exited = new Promise((resolve) => prism.once('exit', resolve));
        prism.kill('SIGTERM');
        const grace = setTimeout(killPrism, 5_000);
        await exited;
        clearTimeout(grace);
      }
      process.removeListener('exit', killPrism);
      await closed;
    },
  };
}

const USAGE = 'usage: npm run mock -- [--port N] [--host H] [spec]   (PORT, HOST, OPENAPI_SPEC also set them)';

/** The command line, or a one-line usage error (exit 2) for an unknown option, a bad port or a missing spec. */
function commandLine(argv: string[]): MockOptions {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { port: { type: 'string' }, host: { type: 'string' } },
    });
    const [spec, ...more] = positionals;
    if (more.length > 0) throw new Error('one spec at most');
    if (spec !== undefined && !existsSync(path.resolve(ROOT, spec))) throw new Error(`no contract at ${spec}`);
    const port = values.port ?? process.env.PORT;
    if (port !== undefined && !/^\d{1,5}$/.test(port)) throw new Error(`${port} is not a port number`);
    const host = values.host ?? process.env.HOST;
    return {
      ...(spec !== undefined ? { spec } : {}),
      ...(host ? { host } : {}),
      ...(port !== undefined ? { port: Number(port) } : {}),
    };
  } catch (error) {
    console.error(`mock: ${(error as Error).message}\n${USAGE}`);
    process.exit(2);
  }
}

if (import.meta.main) {
  const timeout = Number(process.env.MOCK_TIMEOUT_MS);
  const mock = await startMock({
    ...commandLine(process.argv.slice(2)),
    ...(timeout > 0 ? { timeoutMs: timeout } : {}),
    ...(process.env.MOCK_VERBOSE ? { log: (line: string) => console.error(line) } : {}),
  });
  const stop = (): void => {
    void mock.close().then(() => process.exit(0));
  };
  // before the address is printed: whoever reads it may stop the mock at once
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  console.log(`mock: contract-faithful mock on ${mock.url} (stateless; see README "The mock")`);
}
