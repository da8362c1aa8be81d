// `npm run mock` answers inside the contract: documented success examples, the
// contract's 401/400/404 envelopes (never Prism's problem+json), `Prefer: code=404`.
// Runs against the stand-in fixture, a copy of it whose operations document no 400/401
// (so Prism falls back to its own errors and the proxy must step in), and openapi.yaml.

import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  bearerFormatExample,
  ContractDocument,
  credentialFormat,
  type Json,
  maxBodyBytes,
} from '../../lib/contract.ts';
import { reason } from '../../lib/reasons.ts';
import { getInAbsoluteForm } from '../test-helpers/absolute-form.ts';
import { REFUSED_BY_NODE, rawAnswer, UNKNOWN_EXPECTATION, untilClosed } from '../test-helpers/raw-http.ts';
import { CONTRACT_SPEC, FIXTURE_SPEC, ROOT, specsUnderTest, writeTempSpec } from '../test-helpers/run.ts';
import { internalErrorMessage } from './answers.ts';
import { type MockServer, startMock } from './mock.ts';

// biome-ignore lint/suspicious/noExplicitAny: the spec is walked as untyped YAML
type Doc = any;

interface Operation {
  method: string;
  path: string;
  op: Doc;
}

const reader = (doc: Doc) => new ContractDocument(doc as Record<string, Json>);
const deref = (doc: Doc, node: Doc): Doc => reader(doc).deref(node);
const firstExample = (doc: Doc, response: Doc): Doc => reader(doc).firstExample(response);

/**
 * The status of a request sent with a body whatever its method (fetch sends none with a GET). An answer may come
 * before the whole body is sent, and the connection close under the rest: the status is the answer's.
 */
function requestWithBody(method: string, url: string, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let status: number | undefined;
    const framed = { ...headers, 'content-length': String(Buffer.byteLength(body)) };
    const request = http.request(url, { method, headers: framed }, (response) => {
      status = response.statusCode ?? 0;
      response.resume();
      resolve(status);
    });
    request.once('error', (error) => (status === undefined ? reject(error) : undefined));
    request.end(body);
  });
}

function operations(doc: Doc): Operation[] {
  return reader(doc)
    .listOperations()
    .map(({ method, path, raw }) => ({ method, path, op: raw }));
}

/** A value for a parameter: its example, else its schema's example/default/enum/format. */
function sampleValue(doc: Doc, param: Doc): string {
  if (param.example !== undefined) return String(param.example);
  const firstNamed = param.examples && Object.values(param.examples)[0];
  if (firstNamed) return String(deref(doc, firstNamed).value);
  const schema = deref(doc, param.schema) ?? {};
  if (schema.example !== undefined) return String(schema.example);
  if (schema.examples?.[0] !== undefined) return String(schema.examples[0]);
  if (schema.default !== undefined) return String(schema.default);
  if (schema.enum?.[0] !== undefined) return String(schema.enum[0]);
  if (schema.format === 'uuid') return '00000000-0000-4000-8000-000000000000';
  if (schema.type === 'integer' || schema.type === 'number') return String(schema.minimum ?? 1);
  return 'x';
}

/** Credentials satisfying the operation's first security requirement. */
function authHeaders(doc: Doc, op: Doc): Record<string, string> {
  const requirement = (op.security ?? doc.security ?? [])[0] ?? {};
  const headers: Record<string, string> = {};
  for (const name of Object.keys(requirement)) {
    const scheme = doc.components.securitySchemes[name];
    const format = credentialFormat(scheme);
    const token = format ? bearerFormatExample(format) : 'mock-test-key';
    if (scheme.type === 'http' && scheme.scheme === 'bearer') headers.authorization = `Bearer ${token}`;
    else if (scheme.type === 'http' && scheme.scheme === 'basic') headers.authorization = 'Basic dTpw';
    else if (scheme.type === 'apiKey' && scheme.in === 'header') headers[scheme.name.toLowerCase()] = token;
  }
  return headers;
}

/** A request the contract accepts: required params, credentials, the documented body. */
function validRequest(doc: Doc, { method, path, op }: Operation, pathItem: Doc) {
  const params = [...(pathItem.parameters ?? []), ...(op.parameters ?? [])].map((p: Doc) => deref(doc, p));
  let url = path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = { ...authHeaders(doc, op) };
  for (const param of params) {
    if (param.in === 'path') url = url.replace(`{${param.name}}`, encodeURIComponent(sampleValue(doc, param)));
    else if (param.required && param.in === 'query') query.set(param.name, sampleValue(doc, param));
    else if (param.required && param.in === 'header') headers[param.name.toLowerCase()] = sampleValue(doc, param);
  }
  let body: string | undefined;
  const requestBody = deref(doc, op.requestBody);
  if (requestBody?.content) {
    const [mediaType, media] = Object.entries(requestBody.content)[0] as [string, Doc];
    const example = firstExample(doc, { content: { [mediaType]: media } });
    headers['content-type'] = mediaType;
    body = JSON.stringify(example ?? {});
  }
  const search = query.size > 0 ? `?${query}` : '';
  return { url: `${url}${search}`, init: { method: method.toUpperCase(), headers, body } };
}

/**
 * A contract example as the mock answers it: its `meta.timestamp`, where it has one, the time of the answer (at or
 * after `since`, at most now), not the example's fixed instant.
 */
function answeredSince(example: Doc, since: number): Doc {
  if (example?.meta?.timestamp === undefined) return example;
  const answeredAt = (time: string) => Date.parse(time) >= since && Date.parse(time) <= Date.now();
  return { ...example, meta: { ...example.meta, timestamp: expect.toSatisfy(answeredAt, 'the time of the answer') } };
}

function lowestSuccess(op: Doc): string | undefined {
  return Object.keys(op.responses ?? {})
    .filter((code) => /^2\d\d$/.test(code))
    .sort()[0];
}

function storeIdHeader(doc: Doc, op: Operation, pathItem: Doc): string | undefined {
  const params = [...(pathItem.parameters ?? []), ...(op.op.parameters ?? [])].map((p: Doc) => deref(doc, p));
  return params.find((p: Doc) => p.in === 'header' && p.name.toLowerCase() === 'x-store-id')?.name;
}

async function gapsSpec(): Promise<string> {
  // Same contract, but no operation documents 400 or 401: Prism then answers with its own
  // problem+json (401, 422) and the proxy has to turn it into the contract's envelope.
  const doc: Doc = parse(await readFile(FIXTURE_SPEC, 'utf8'));
  for (const { op } of operations(doc)) {
    delete op.responses['400'];
    delete op.responses['401'];
  }
  return writeTempSpec(doc);
}

const specs: [string, string | (() => Promise<string>)][] = [
  ...specsUnderTest(),
  ['fixture without per-operation 400/401', gapsSpec],
];

describe.each(specs)('mock against %s', (_name, specSource) => {
  let mock: MockServer;
  let doc: Doc;

  beforeAll(async () => {
    const spec = typeof specSource === 'string' ? specSource : await specSource();
    doc = parse(await readFile(spec, 'utf8'));
    mock = await startMock({ spec, port: 0 });
  });
  afterAll(async () => {
    await mock?.close();
  });

  const call = (url: string, init: RequestInit) => fetch(`${mock.url}${url}`, init);
  const contractError = (name: string) => firstExample(doc, doc.components.responses[name]);
  const ops = () => operations(doc);

  it('answers every operation with its documented success example', async () => {
    const failures: string[] = [];
    for (const operation of ops()) {
      const { url, init } = validRequest(doc, operation, doc.paths[operation.path]);
      const res = await call(url, init);
      const code = lowestSuccess(operation.op);
      const want = firstExample(doc, operation.op.responses[code ?? '']);
      const text = await res.text();
      const got = text ? JSON.parse(text) : undefined;
      if (String(res.status) !== code) {
        failures.push(`${operation.op.operationId}: status ${res.status}, want ${code}: ${text.slice(0, 300)}`);
      } else if (want !== undefined && JSON.stringify(got) !== JSON.stringify(want)) {
        failures.push(`${operation.op.operationId}: body differs from the documented example`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("answers a request without credentials with the contract's 401 envelope", async () => {
    const secured = ops().filter(({ op }) =>
      (op.security ?? doc.security ?? []).every((r: Doc) => Object.keys(r).length),
    );
    expect(secured.length).toBeGreaterThan(0);
    for (const operation of secured) {
      const { url, init } = validRequest(doc, operation, doc.paths[operation.path]);
      const headers = { ...(init.headers as Record<string, string>) };
      delete headers.authorization;
      for (const scheme of Object.values(doc.components.securitySchemes) as Doc[]) {
        if (scheme.type === 'apiKey') delete headers[scheme.name.toLowerCase()];
      }
      const since = Date.now();
      const res = await call(url, { ...init, headers });
      expect(res.status, operation.op.operationId).toBe(401);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const want = deref(doc, operation.op.responses['401'])
        ? firstExample(doc, operation.op.responses['401'])
        : contractError('Unauthorized');
      expect(await res.json(), operation.op.operationId).toEqual(answeredSince(want, since));
    }
  });

  it("answers a non-uuid X-Store-Id with the contract's 400 VALIDATION_ERROR envelope", async () => {
    const withStore = ops().filter((o) => storeIdHeader(doc, o, doc.paths[o.path]));
    expect(withStore.length).toBeGreaterThan(0);
    for (const operation of withStore) {
      const { url, init } = validRequest(doc, operation, doc.paths[operation.path]);
      const headers = { ...(init.headers as Record<string, string>), 'x-store-id': 'not-a-uuid' };
      const res = await call(url, { ...init, headers });
      expect(res.status, operation.op.operationId).toBe(400);
      const body: Doc = await res.json();
      expect(body.error?.code, operation.op.operationId).toBe('VALIDATION_ERROR');
      expect(body, operation.op.operationId).toMatchObject({ success: false, meta: { status: 400 } });
    }
  });

  it("answers an invalid body with the contract's 400 VALIDATION_ERROR envelope", async () => {
    const withBody = ops().filter(({ op }) => deref(doc, op.requestBody)?.content?.['application/json']);
    expect(withBody.length).toBeGreaterThan(0);
    for (const operation of withBody) {
      const { url, init } = validRequest(doc, operation, doc.paths[operation.path]);
      const res = await call(url, { ...init, body: '[]' });
      expect(res.status, operation.op.operationId).toBe(400);
      const body: Doc = await res.json();
      expect(body.error?.code, operation.op.operationId).toBe('VALIDATION_ERROR');
      expect(body, operation.op.operationId).toMatchObject({ success: false, meta: { status: 400 } });
    }
  });

  it("names the missing required field of an invalid body in the 400 details (Prism's own violation)", async () => {
    const withBody = ops().filter(({ op }) => deref(doc, op.requestBody)?.content?.['application/json']);
    expect(withBody.length).toBeGreaterThan(0);
    for (const operation of withBody) {
      const schema = deref(doc, deref(doc, operation.op.requestBody).content['application/json'].schema);
      const field = (schema?.required ?? [])[0];
      if (!field) continue;
      const { url, init } = validRequest(doc, operation, doc.paths[operation.path]);
      const { [field]: _removed, ...rest } = JSON.parse(String(init.body));
      const res = await call(url, { ...init, body: JSON.stringify(rest) });
      const body: Doc = await res.json();
      expect(res.status, operation.op.operationId).toBe(400);
      expect(body, operation.op.operationId).toMatchObject({
        success: false,
        error: {
          code: 'VALIDATION_ERROR',
          details: expect.arrayContaining([expect.objectContaining({ location: 'body', path: field })]),
        },
        meta: { status: 400 },
      });
    }
  });

  it("answers a body that is not JSON, or not UTF-8, with the contract's 400 naming the body and the headers the operation's 400 requires, without asking Prism", async () => {
    const withBody = ops().filter(({ op }) => deref(doc, op.requestBody)?.content?.['application/json']);
    for (const operation of withBody) {
      const { url, init } = validRequest(doc, operation, doc.paths[operation.path]);
      const declared: Record<string, Doc> = deref(doc, operation.op.responses['400'])?.headers ?? {};
      // X-Request-Id is the request's own, not the example (see below).
      const required = Object.entries(declared).filter(
        ([name, header]) => deref(doc, header)?.required && name !== 'X-Request-Id',
      );
      for (const body of ['{"name":', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])]) {
        const res = await call(url, { ...init, body });
        expect(res.status, operation.op.operationId).toBe(400);
        expect(await res.json(), operation.op.operationId).toMatchObject({
          success: false,
          error: { code: 'VALIDATION_ERROR', details: [{ location: 'body', path: '' }] },
          meta: { status: 400 },
        });
        for (const [name, header] of required) {
          expect(res.headers.get(name), `${operation.op.operationId} ${name}`).toBe(String(deref(doc, header).example));
        }
      }
    }
  });

  it("answers `Prefer: code=404` on a read with the operation's documented 404 example", async () => {
    const reads = ops().filter(({ method, op }) => method === 'get' && op.responses['404']);
    expect(reads.length).toBeGreaterThan(0);
    for (const operation of reads) {
      const { url, init } = validRequest(doc, operation, doc.paths[operation.path]);
      const headers = { ...(init.headers as Record<string, string>), prefer: 'code=404' };
      const since = Date.now();
      const res = await call(url, { ...init, headers });
      expect(res.status, operation.op.operationId).toBe(404);
      const example = firstExample(doc, operation.op.responses['404']);
      expect(await res.json(), operation.op.operationId).toEqual(answeredSince(example, since));
    }
  });

  it('answers a `Prefer` no documented response meets with a 400 naming it, and ignores a preference it does not honour', async () => {
    const operation = ops().find(({ op }) => op.operationId === 'listProducts');
    if (!operation) throw new Error('the contract has no listProducts');
    const { url, init } = validRequest(doc, operation, doc.paths[operation.path]);
    const preferring = (prefer: string) => call(url, { ...init, headers: { ...(init.headers as object), prefer } });
    const badRequest: Doc = contractError('BadRequest');
    const unauthorized = reader(doc).examples(doc.components.responses.Unauthorized)[0];
    if (!unauthorized) throw new Error('the contract has no Unauthorized example');
    for (const preference of [
      'code=999',
      'code=404',
      'example=NoSuchExample',
      `code=200, example=${unauthorized.name}`,
    ]) {
      const since = Date.now();
      const res = await preferring(preference);
      const details = [{ location: 'header', path: 'prefer', reason: reason('mock-prefer-unknown', { preference }) }];
      expect({ status: res.status, body: await res.json() }, preference).toEqual({
        status: 400,
        body: answeredSince({ ...badRequest, error: { ...badRequest.error, details } }, since),
      });
    }
    // RFC 7240: a preference the mock does not honour is ignored (Prism's dynamic=true made bodies up), and so are
    // a preference's parameters.
    const plain = await (await call(url, init)).json();
    const dynamic = await preferring('dynamic=true');
    expect({ status: dynamic.status, body: await dynamic.json() }).toEqual({ status: 200, body: plain });
    // An example alone is looked for in every response of the operation, not in the first only.
    const documented401 = operation.op.responses['401'] ? [`example=${unauthorized.name}`, 'code=401;q=1'] : [];
    for (const preference of documented401) {
      const since = Date.now();
      const res = await preferring(preference);
      expect({ status: res.status, body: await res.json() }, preference).toEqual({
        status: 401,
        body: answeredSince(unauthorized.value, since),
      });
    }
  });

  it("answers an unknown route, another letter case or a trailing / with the contract's 404 envelope: its RouteNotFound example where it has one", async () => {
    const examples = reader(doc).examples(doc.components.responses.NotFound);
    const routeNotFound = examples.find(({ name }) => name === 'RouteNotFound')?.value;
    for (const path of ['/api/v1/no-such-route', '/api/v1/products/', '/API/V1/PRODUCTS', '/api/v1/products//x']) {
      const since = Date.now();
      const res = await call(path, { headers: { authorization: 'Bearer mock-test-key' } });
      expect({ path, status: res.status, body: await res.json(), id: res.headers.get('x-request-id') }).toEqual({
        path,
        status: 404,
        body: answeredSince(routeNotFound ?? contractError('NotFound'), since),
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
    }
  });
});

describe('mock against openapi.yaml: what a partner notices', () => {
  const storeId = '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
  let mock: MockServer;
  let contract: ContractDocument;
  let key: string;
  beforeAll(async () => {
    contract = ContractDocument.load();
    key = bearerFormatExample(String(contract.securityScheme('ApiKeyAuth')?.bearerFormat));
    mock = await startMock({ port: 0 });
  });
  afterAll(async () => {
    await mock?.close();
  });
  it('answers what Node refuses before the proxy in the error envelope, as the server does, then closes', async () => {
    const port = Number(new URL(mock.url).port);
    for (const [request, answer] of REFUSED_BY_NODE) expect(await rawAnswer(port, request), request).toEqual(answer);
    expect(await rawAnswer(port, UNKNOWN_EXPECTATION)).toMatchObject({
      status: 401,
      body: { error: { code: 'AUTH_API_KEY_REQUIRED' } },
    });
    // Prism is not asked to meet the expectation either: its HTTP layer would answer a bare 417.
    const served = UNKNOWN_EXPECTATION.replace(
      '\r\n\r\n',
      `\r\nAuthorization: Bearer ${key}\r\nX-Store-Id: ${storeId}\r\n\r\n`,
    );
    const socket = net.connect(port, '127.0.0.1');
    socket.write(served);
    expect(await untilClosed(socket)).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
  });
  const createProductOperation = () => {
    const operation = contract.listOperations().find((o) => o.operationId === 'createProduct');
    if (!operation) throw new Error('openapi.yaml has no createProduct');
    return operation;
  };
  const createProduct = () => {
    const operation = createProductOperation();
    const body = contract.firstExample(operation?.raw.requestBody) as Record<string, Json>;
    return { url: `${mock.url}${operation.path}`, body };
  };
  const headers = (authorization: string, extra: Record<string, string> = {}) => ({
    authorization,
    'x-store-id': storeId,
    'content-type': 'application/json',
    ...extra,
  });
  /** The contract's answer for `status` beyond an operation's own (`x-unlisted-answers`), answered after `since`. */
  const unlistedAnswerSince = (status: number, since: number) => {
    const answers = (contract.pointer('#/components/schemas/ErrorResponse/x-unlisted-answers') ?? []) as Doc[];
    return {
      status,
      body: answeredSince(
        answers.find((answer) => answer.meta.status === status),
        since,
      ),
    };
  };
  const unauthorized = () => {
    const responses = createProductOperation().raw.responses as Record<string, Json>;
    return contract.firstExample(responses['401']);
  };

  it('answers an invalid request with what is wrong with it whatever example it prefers, as without one', async () => {
    const { url } = createProduct();
    const invalid = (extra: Record<string, string> = {}) =>
      fetch(url, {
        method: 'POST',
        headers: headers(`Bearer ${key}`, { 'idempotency-key': randomUUID(), ...extra }),
        body: JSON.stringify({ name: 'x', type: 'DIGITAL', price: 5 }),
      });
    const plain = await invalid();
    const refused: Doc = await plain.json();
    expect({ status: plain.status, code: refused.error.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
    // Prism looked for the example among the 422s it answers an invalid request from, and answered its own 404.
    const responses = createProductOperation().raw.responses as Record<string, Json>;
    const examples = contract.examples(responses['400']);
    expect(examples.length).toBeGreaterThan(1);
    for (const { name } of examples) {
      const res = await invalid({ prefer: `example=${name}` });
      expect({ name, status: res.status, body: await res.json() }).toEqual({
        name,
        status: 400,
        body: { ...refused, meta: { ...refused.meta, timestamp: expect.any(String) } },
      });
    }
  });

  /** createProduct's example body sent with these credentials and extra headers. */
  const postProduct = (authorization: string, extra: Record<string, string> = {}) => {
    const { url, body } = createProduct();
    return fetch(url, { method: 'POST', headers: headers(authorization, extra), body: JSON.stringify(body) });
  };

  it('echoes a client X-Request-Id the contract allows, and gives every other request an id of its own', async () => {
    const idOf = async (authorization: string, requestId?: string) => {
      const extra: Record<string, string> = requestId === undefined ? {} : { 'x-request-id': requestId };
      const res = await fetch(`${mock.url}/api/v1/products`, { headers: headers(authorization, extra) });
      return { status: res.status, id: res.headers.get('x-request-id') };
    };
    expect(await idOf(`Bearer ${key}`, 'trace-42.a_b')).toEqual({ status: 200, id: 'trace-42.a_b' });
    expect(await idOf('Bearer nope', 'trace-43')).toEqual({ status: 401, id: 'trace-43' });
    const fresh = [await idOf(`Bearer ${key}`, '<script>'), await idOf(`Bearer ${key}`), await idOf(`Bearer ${key}`)];
    for (const answer of fresh) expect(answer).toEqual({ status: 200, id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(new Set(fresh.map(({ id }) => id)).size).toBe(3);
  });

  it('a create without `name` → 400 whose details name `name`', async () => {
    const { url, body } = createProduct();
    const { name: _name, ...withoutName } = body;
    const res = await fetch(url, {
      method: 'POST',
      headers: headers(`Bearer ${key}`),
      body: JSON.stringify(withoutName),
    });
    const json: Doc = await res.json();
    expect(res.status).toBe(400);
    expect(json.error.code).toBe('VALIDATION_ERROR');
    expect(json.error.details.map((d: Doc) => `${d.location} ${d.path}`)).toEqual(['body name']);
  });

  it("a body over the contract's x-max-body-bytes → its 413 once the credentials pass; at the limit it is read", async () => {
    const { url, body } = createProduct();
    const limit = maxBodyBytes(contract) ?? Number.NaN;
    // The example with its description grown until the JSON is `length` bytes long.
    const ofLength = (length: number) => {
      const json = JSON.stringify({ ...body, description: '' });
      return json.replace('"description":""', `"description":"${'x'.repeat(length - Buffer.byteLength(json))}"`);
    };
    expect(Buffer.byteLength(ofLength(limit + 1))).toBe(limit + 1);
    const since = Date.now();
    const send = (authorization: string, length: number) =>
      fetch(url, { method: 'POST', headers: headers(authorization), body: ofLength(length) });
    const over = await send(`Bearer ${key}`, limit + 1);
    expect({ status: over.status, body: await over.json() }).toEqual(unlistedAnswerSince(413, since));
    const unauthenticated = await send('Bearer hello', limit + 1);
    expect({ status: unauthenticated.status, body: await unauthenticated.json() }).toEqual({
      status: 401,
      body: answeredSince(unauthorized(), since),
    });
    // At the limit the body is Prism's to judge: the description is longer than the schema allows.
    const atLimit = await send(`Bearer ${key}`, limit);
    const json: Doc = await atLimit.json();
    expect({ status: atLimit.status, code: json.error.code }).toEqual({ status: 400, code: 'VALIDATION_ERROR' });
    expect(json.error.details.map((d: Doc) => `${d.location} ${d.path}`)).toContain('body description');
  });

  it.each([
    ['in UTF-16 (charset=utf-16)', { 'content-type': 'application/json; charset=utf-16' }, 'utf-16'],
    ['gzipped (Content-Encoding: gzip)', { 'content-encoding': 'gzip' }, 'gzip'],
  ] as const)("a JSON body %s → the contract's 415, as the server answers it", async (_name, extra, encoding) => {
    const { url, body } = createProduct();
    const json = JSON.stringify(body);
    const bytes = encoding === 'gzip' ? gzipSync(json) : Buffer.from(json, 'utf16le');
    const since = Date.now();
    const res = await fetch(url, {
      method: 'POST',
      headers: headers(`Bearer ${key}`, extra),
      body: new Uint8Array(bytes),
    });
    expect({ status: res.status, body: await res.json() }).toEqual(unlistedAnswerSince(415, since));
  });

  it.each([
    ['a body in text/plain', 'text/plain', 'Caneca'],
    ['a form body', 'application/x-www-form-urlencoded', 'name=Caneca&type=DIGITAL&price=10'],
    ['no Content-Type and no body', undefined, undefined],
    ['two media types', 'application/json, text/plain', '{}'],
  ] as const)(
    "%s to an operation that takes JSON → the contract's 415, as the server answers it",
    async (_name, type, text) => {
      const { url } = createProduct();
      const { 'content-type': _json, ...sent } = headers(`Bearer ${key}`);
      const since = Date.now();
      const res = await fetch(url, {
        method: 'POST',
        headers: type ? { ...sent, 'content-type': type } : sent,
        ...(text === undefined ? {} : { body: text }),
      });
      expect({ status: res.status, body: await res.json() }).toEqual(unlistedAnswerSince(415, since));
    },
  );

  it.each(['application/json;', 'application/json; charset="utf-8'])(
    'a JSON body labelled `%s` is read as JSON, as the server reads it (Prism alone answered a 500 of its own)',
    async (type) => {
      const res = await postProduct(`Bearer ${key}`, { 'content-type': type });
      expect(res.status).toBe(201);
      expect(await res.json()).toMatchObject({ success: true });
    },
  );

  it('reads a body under an empty Content-Encoding as sent, and a body only when it is JSON, as the server does', async () => {
    const unencoded = await postProduct(`Bearer ${key}`, { 'content-encoding': '' });
    expect(unencoded.status).toBe(201);
    // A GET's body over the limit: never read as text, refused as JSON (fetch sends no body with a GET).
    const list = `${mock.url}/api/v1/products`;
    const over = 'a'.repeat((maxBodyBytes(contract) ?? 0) + 1);
    const text = await requestWithBody('GET', list, headers(`Bearer ${key}`, { 'content-type': 'text/plain' }), over);
    const json = await requestWithBody('GET', list, headers(`Bearer ${key}`), JSON.stringify({ over }));
    expect([text, json]).toEqual([200, 413]);
  });

  it('a target in absolute form is answered as the same request in origin form, as the server answers it', async () => {
    const absolute = await getInAbsoluteForm(`${mock.url}/api/v1/products?limit=1`, headers(`Bearer ${key}`));
    const origin = await fetch(`${mock.url}/api/v1/products?limit=1`, { headers: headers(`Bearer ${key}`) });
    expect(absolute).toEqual({ status: 200, body: await origin.json() });
  });

  it('`Bearer hello` (not of the key format) → the documented 401', async () => {
    const since = Date.now();
    const res = await postProduct('Bearer hello');
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(answeredSince(unauthorized(), since));
    // RFC 9110: a 401 says how to authenticate, as the server's does.
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="storefront"');
  });

  it("an external checkout key not of the contract's x-key-format → the documented 401; one of that form is read", async () => {
    const operation = contract.listOperations().find((o) => o.operationId === 'getPaymentLinkById');
    if (!operation) throw new Error('openapi.yaml has no getPaymentLinkById');
    const url = `${mock.url}${operation.path.replace('{paymentLinkId}', storeId)}`;
    const format = credentialFormat(contract.securityScheme('CheckoutApiKey'));
    const since = Date.now();
    const statusWith = async (key: string) => {
      const res = await fetch(url, { headers: { 'x-api-key': key } });
      return { status: res.status, body: await res.json() };
    };
    const responses = operation.raw.responses as Record<string, Json>;
    expect(await statusWith('sf_checkout_short')).toEqual({
      status: 401,
      body: answeredSince(contract.firstExample(responses['401']), since),
    });
    expect((await statusWith(bearerFormatExample(String(format)))).status).toBe(200);
  });

  it('a key of the format with the scheme in lower case is accepted (RFC 9110)', async () => {
    const res = await postProduct(`bearer ${key}`);
    expect(res.status).toBe(201);
  });

  it('a first create with an Idempotency-Key says nothing of a replay', async () => {
    const res = await postProduct(`Bearer ${key}`, { 'idempotency-key': 'first-create-0001' });
    expect(res.status).toBe(201);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
  });

  it("sends none of Prism's own headers the server does not send: no CORS, no sl-violations", async () => {
    const sent = [
      await fetch(`${mock.url}/api/v1/products`, {
        headers: headers(`Bearer ${key}`, { origin: 'https://shop.example' }),
      }),
      await fetch(`${mock.url}/api/v1/products?page=0`, { headers: headers(`Bearer ${key}`) }),
    ];
    expect(sent.map((res) => res.status)).toEqual([200, 400]);
    for (const res of sent) {
      const names = [...res.headers.keys()];
      expect(names.filter((name) => name.startsWith('access-control-') || name === 'sl-violations')).toEqual([]);
    }
  });

  it('answers a body sent to an operation that takes none as if there were none, as the server does', async () => {
    const operation = contract.listOperations().find((o) => o.method === 'post' && o.raw.requestBody === undefined);
    if (!operation) throw new Error('openapi.yaml has no POST without a request body');
    const url = `${mock.url}${operation.path.replace(/\{[^}]+\}/g, storeId)}`;
    const withBody = await fetch(url, { method: 'POST', headers: headers(`Bearer ${key}`), body: '{"x":1}' });
    const without = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'x-store-id': storeId },
    });
    expect(withBody.status).toBeLessThan(300);
    expect({ status: withBody.status, body: await withBody.json() }).toEqual({
      status: without.status,
      body: await without.json(),
    });
  });

  it('prints only its own address at start, and stops cleanly (taking Prism along) on SIGTERM', async () => {
    const child = spawn(process.execPath, [path.join(ROOT, 'scripts/mock/mock.ts')], {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', MOCK_VERBOSE: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('\n')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`the mock exited (${code}): ${output}`)));
    });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    // exit code 0: the mock's own handler ran (and stopped Prism), not the default end by the signal
    expect(await exited).toBe(0);
    expect(output).toMatch(/^mock: contract-faithful mock on http:\/\/127\.0\.0\.1:\d+ [^\n]*\n$/);
  });
});

describe('mock time-out', () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMock({ spec: CONTRACT_SPEC, port: 0, timeoutMs: 300 });
  });
  afterAll(async () => {
    await mock?.close();
  });

  it('answers a request whose body never completes as the server does at its deadline: 408 in the envelope', async () => {
    const { port } = new URL(mock.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    const key = bearerFormatExample(String(ContractDocument.load().securityScheme('ApiKeyAuth')?.bearerFormat));
    socket.write(
      'POST /api/v1/products HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n' +
        `Authorization: Bearer ${key}\r\nX-Store-Id: 6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f\r\n\r\n{"na`,
    );
    const [head = '', body = ''] = (await untilClosed(socket)).split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(body)).toEqual({
      success: false,
      error: {
        message: 'Os dados enviados são inválidos.',
        code: 'VALIDATION_ERROR',
        details: [{ location: 'header', path: '', reason: reason('request-incomplete') }],
      },
      meta: { timestamp: expect.any(String), status: 408 },
    });
  });

  it('answers headers that never complete with the 408 envelope within its time-out, as the server at its deadline', async () => {
    const socket = net.connect(Number(new URL(mock.url).port), '127.0.0.1');
    socket.write('GET /api/v1/products HTTP/1.1\r\nHost: x\r\n');
    const [head = '', body = ''] = (await untilClosed(socket)).split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(body)).toMatchObject({ error: { code: 'VALIDATION_ERROR' }, meta: { status: 408 } });
  });

  it('answers a request without credentials at once, before its body arrives or is invited', async () => {
    const { port } = new URL(mock.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    socket.write(
      'POST /api/v1/products HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n' +
        'Expect: 100-continue\r\nConnection: close\r\n\r\n',
    );
    const [first] = await once(socket, 'data');
    expect(String(first)).toMatch(/^HTTP\/1\.1 401 /);
    socket.destroy();
  });

  it("words its own 500s from the spec, else with the code's message, else the code", async () => {
    const contract = ContractDocument.load();
    expect(internalErrorMessage(contract, 'mock-unreachable')).toBe('O mock não conseguiu falar com o Prism.');
    const withoutCases = new ContractDocument({
      components: { schemas: { ErrorCode: { 'x-messages': { INTERNAL_ERROR: 'Falhou.' } } } },
    });
    expect(internalErrorMessage(withoutCases, 'mock-timeout', { timeoutMs: 1 })).toBe('Falhou.');
    expect(internalErrorMessage(new ContractDocument({}), 'mock-timeout')).toBe('INTERNAL_ERROR');
  });
});
