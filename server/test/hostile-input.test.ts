import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import type { components, paths } from '../../generated/openapi.ts';
import { MAX_BODY_DEPTH } from '../../lib/storable-text.ts';
import { CONTRACT_PATH, contractCount, contractOperations, type Operation } from '../src/contract.ts';
import { detailsOf } from './catalog.ts';
import { describeEngines, malformed, test, withoutDefaults } from './fixture.ts';
import {
  adminHeaders,
  createTenant,
  engines,
  rawRequest,
  startServer,
  type Tenant,
  type TestServer,
} from './harness.ts';

type ProductCreate = components['schemas']['ProductCreate'];

/** The parts of openapi.yaml this table is built from: request examples, list parameters, error codes. */
interface RawContract {
  paths: Record<
    string,
    Record<string, { parameters?: { $ref?: string }[]; requestBody?: { content: Record<string, RawMedia> } }>
  >;
  components: { examples: Record<string, { value: unknown }>; schemas: { ErrorCode: { enum: string[] } } };
}
interface RawMedia {
  examples?: Record<string, { $ref?: string; value?: unknown }>;
}
const raw = YAML.parse(readFileSync(CONTRACT_PATH, 'utf8')) as RawContract;
const ERROR_CODES = new Set(raw.components.schemas.ErrorCode.enum);

/** The first request example of an operation with a JSON body. */
function exampleBody(op: Operation): unknown {
  const media = raw.paths[op.path]?.[op.method]?.requestBody?.content['application/json'];
  const first = Object.values(media?.examples ?? {})[0];
  if (!first) return undefined;
  return first.$ref ? raw.components.examples[first.$ref.replace('#/components/examples/', '')]?.value : first.value;
}

const isList = (op: Operation) =>
  (raw.paths[op.path]?.[op.method]?.parameters ?? []).some((p) => p.$ref === '#/components/parameters/Page');

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Leaf = { path: (string | number)[]; value: Json };

/** Every value under the root (not the root itself) with its path. */
function walk(value: Json, path: (string | number)[] = []): Leaf[] {
  const here = path.length > 0 ? [{ path, value }] : [];
  if (Array.isArray(value)) return [...here, ...value.flatMap((item, index) => walk(item, [...path, index]))];
  if (value !== null && typeof value === 'object') {
    return [...here, ...Object.entries(value).flatMap(([key, item]) => walk(item, [...path, key]))];
  }
  return here;
}

function replaced(root: Json, path: (string | number)[], value: Json): Json {
  const copy = structuredClone(root) as Record<string | number, Json>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, Json>;
  node[path[path.length - 1] as string | number] = value;
  return copy;
}

/** `[[[...]]]` as raw JSON: built as text, since building the value would need the recursion it is meant to test. */
const deepArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const deepObject = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const DEEP = 5000;

interface Case {
  name: string;
  op: Operation;
  query?: string;
  body?: string;
  headers?: Record<string, string>;
}

/** Hostile bodies derived from the operation's own example: each field in turn, then the whole body. */
function bodyCases(op: Operation, example: Json): Case[] {
  const cases: Case[] = [];
  const text = (value: Json) => JSON.stringify(value);
  const spliced = (path: (string | number)[], rawValue: string) =>
    text(replaced(example, path, '\u0001splice\u0001')).replace('"\\u0001splice\\u0001"', rawValue);
  for (const { path, value } of walk(example)) {
    const field = path.join('.');
    if (typeof value === 'string') {
      cases.push({ name: `NUL in ${field}`, op, body: text(replaced(example, path, `${value}\u0000x`)) });
      cases.push({ name: `lone surrogate in ${field}`, op, body: text(replaced(example, path, `${value}\ud800`)) });
      if (DATE_TIME.test(value)) {
        for (const instant of NO_INSTANT) {
          cases.push({ name: `${instant} for ${field}`, op, body: text(replaced(example, path, instant)) });
        }
      }
    } else if (typeof value === 'number') {
      cases.push({ name: `1e400 for ${field}`, op, body: spliced(path, '1e400') });
      cases.push({ name: `2^64 for ${field}`, op, body: spliced(path, '18446744073709551617') });
      cases.push({ name: `string for ${field}`, op, body: text(replaced(example, path, '12')) });
    } else if (value !== null && typeof value === 'object') {
      cases.push({ name: `${DEEP}-deep array in ${field}`, op, body: spliced(path, deepArray(DEEP)) });
    } else {
      cases.push({ name: `object for ${field}`, op, body: text(replaced(example, path, {})) });
    }
  }
  const object = example !== null && typeof example === 'object' && !Array.isArray(example) ? example : {};
  cases.push(
    { name: 'NUL in a field name', op, body: text({ ...object, 'a\u0000b': 'x' }) },
    { name: 'lone surrogate in a field name', op, body: text({ ...object, '\udc00': 'x' }) },
    { name: `${DEEP}-deep array body`, op, body: deepArray(DEEP) },
    { name: `${DEEP}-deep unknown field`, op, body: text(object).replace(/^\{/, `{"extra":${deepObject(DEEP)},`) },
    { name: 'null body', op, body: 'null' },
    { name: 'array body', op, body: '[]' },
    { name: 'string body', op, body: '"x"' },
    { name: 'truncated JSON', op, body: text(example).slice(0, -1) },
    { name: 'text/plain', op, body: text(example), headers: { 'content-type': 'text/plain' } },
    {
      name: 'utf-16 charset',
      op,
      body: text(example),
      headers: { 'content-type': 'application/json; charset=utf-16' },
    },
    { name: 'gzip claimed', op, body: text(example), headers: { 'content-encoding': 'gzip' } },
    { name: 'huge idempotency key', op, body: text(example), headers: { 'idempotency-key': 'k'.repeat(4000) } },
  );
  return cases;
}

/** A field whose example is a date-time. */
const DATE_TIME = /^\d{4}-\d\d-\d\dT/;
/** RFC 3339 grammar that names no instant the API can read: a leap second, a day February lacks, `+05`. */
const NO_INSTANT = ['2026-12-31T23:59:60Z', '2026-02-30T00:00:00Z', '2026-11-01T00:00:00+05'];

const LIST_QUERIES = [
  'page=1e300',
  'page=Infinity',
  'limit=0x10',
  ...NO_INSTANT.map((instant) => `createdFrom=${encodeURIComponent(instant)}`),
  'limit=1e300',
  'page=-1',
  'page=0',
  'page=1.5',
  'page=abc',
  'page=9007199254740993',
  `page=${'9'.repeat(309)}`,
  `limit=${'9'.repeat(309)}`,
  `page=-${'9'.repeat(400)}`,
  'page=1e300&limit=100',
  'limit=1e-300',
  'page=%00',
  'page=1&page=2',
  'search=%25',
  'search=_',
  'search=%00',
  'search=%ED%A0%80',
  `search=${'a'.repeat(5000)}`,
  'unknown=1',
];

/** Why a response breaks the rule (no 5xx, errors in the documented envelope), or undefined. */
function problemOf(status: number, body: unknown): string | undefined {
  if (status >= 500) return `answered ${status}`;
  if (status < 400) return undefined;
  const b = body as Record<string, unknown> | undefined;
  if (status === 429) {
    return b?.success === false && b.error === 'RATE_LIMITED' && typeof b.retryAfter === 'number'
      ? undefined
      : 'not the 429 body';
  }
  const error = b?.error as Record<string, unknown> | undefined;
  const meta = b?.meta as Record<string, unknown> | undefined;
  const ok =
    b?.success === false &&
    typeof error?.message === 'string' &&
    ERROR_CODES.has(String(error.code)) &&
    meta?.status === status &&
    typeof meta.timestamp === 'string';
  return ok ? undefined : `not the error envelope: ${JSON.stringify(body)?.slice(0, 200)}`;
}

describe.each(engines)('hostile input on %s', (engine) => {
  let server: TestServer;
  let tenant: Tenant;
  let checkoutKey: string;
  /** Ids of resources created from the contract's examples, by path parameter name (`productId`, ...). */
  const ids = new Map<string, string>();

  const headersFor = (op: Operation): Record<string, string> =>
    op.scheme === 'AdminToken'
      ? adminHeaders(server)
      : op.scheme === 'CheckoutApiKey'
        ? { 'x-api-key': checkoutKey }
        : tenant.headers;
  const pathOf = (op: Operation) =>
    op.path.replace(/\{(\w+)\}/g, (_m, name: string) =>
      name === 'storeId' ? tenant.storeId : (ids.get(name) ?? randomUUID()),
    );

  const send = ({ op, query, body, headers }: Case) =>
    rawRequest(server.baseUrl, op.method.toUpperCase(), `${pathOf(op)}${query ? `?${query}` : ''}`, {
      headers: { ...headersFor(op), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      ...(body !== undefined ? { body } : {}),
    });

  beforeAll(async () => {
    server = await startServer({ engine, env: { RATE_LIMIT_MAX: '1000000' } });
    tenant = await createTenant(server);
    const admin = createClient<paths>({ baseUrl: server.baseUrl, headers: adminHeaders(server) });
    const key = await admin.POST('/admin/stores/{storeId}/checkout-keys', {
      params: { path: { storeId: tenant.storeId } },
    });
    checkoutKey = key.data?.data.checkoutKey.key ?? '';
    // Real ids for the path parameters, so that updates reach the database rather than stop at 404.
    for (const op of contractOperations.filter((o) => o.method === 'post' && !o.path.includes('{'))) {
      const created = await send({ name: 'seed', op, body: JSON.stringify(exampleBody(op)) });
      const resource = Object.values((created.body as { data?: Record<string, { id?: string }> }).data ?? {})[0];
      const param = Object.keys(raw.paths)
        .map((path) => new RegExp(`^${op.path}/\\{(\\w+)\\}$`).exec(path)?.[1])
        .find(Boolean);
      if (created.status === 201 && resource?.id && param) ids.set(param, resource.id);
    }
  }, 60_000);
  afterAll(async () => {
    await server.close();
  });

  it('answers every hostile request below 500, every error in the documented envelope', async () => {
    const cases: Case[] = [
      ...contractOperations.filter(isList).flatMap((op) => LIST_QUERIES.map((query) => ({ name: query, op, query }))),
      ...contractOperations.flatMap((op) => {
        const example = exampleBody(op);
        return example === undefined ? [] : bodyCases(op, example as Json);
      }),
    ];
    expect(cases.length).toBeGreaterThan(500);
    const failures: string[] = [];
    for (let start = 0; start < cases.length; start += 8) {
      const batch = cases.slice(start, start + 8);
      const answers = await Promise.all(batch.map(send));
      answers.forEach((answer, index) => {
        const failure = problemOf(answer.status, answer.body);
        const item = batch[index];
        if (failure && item) failures.push(`${item.op.operationId} ${item.name}: ${failure}`);
      });
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('answers every operation whose body is required, sent none, with 400 naming the body, and changes nothing', async () => {
    const required = contractOperations.filter((op) => op.bodyRequired);
    expect(required.length).toBeGreaterThan(40);
    const missing = {
      success: false,
      error: {
        message: 'Os dados enviados são inválidos.',
        code: 'VALIDATION_ERROR',
        details: [{ location: 'body', path: '', reason: "campo obrigatório (must have required property 'body')" }],
      },
      meta: { timestamp: expect.any(String), status: 400 },
    };
    const readProduct = () =>
      rawRequest(server.baseUrl, 'GET', `/api/v1/products/${ids.get('productId')}`, { headers: tenant.headers });
    const before = await readProduct();
    expect(before.status).toBe(200);
    for (const op of required) {
      // No body at all, a body of no bytes and one of only a byte order mark (skipped): the same request.
      for (const body of [undefined, '', '\ufeff']) {
        const answer = await rawRequest(server.baseUrl, op.method.toUpperCase(), pathOf(op), {
          headers: { ...headersFor(op), 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body }),
        });
        expect({ operation: op.operationId, status: answer.status, body: answer.body }).toEqual({
          operation: op.operationId,
          status: 400,
          body: missing,
        });
      }
    }
    expect((await readProduct()).body).toEqual(before.body);
  }, 60_000);
});

/** The 400 VALIDATION_ERROR envelope with these details. */
const invalid = (details: unknown) => ({
  success: false,
  error: { message: 'Os dados enviados são inválidos.', code: 'VALIDATION_ERROR', details },
  meta: { timestamp: expect.any(String), status: 400 },
});

/** A search string percent-encoded as clients do, `!` included (which encodeURIComponent leaves as it is). */
const searchFor = (search: string) => `search=${encodeURIComponent(search).replace('!', '%21')}`;

describeEngines('hostile text through the typed client', () => {
  test.for([
    ['NUL', { name: 'Caneca\u0000' }, 'name'],
    ['a lone surrogate', { name: 'Caneca \ud83d' }, 'name'],
    [
      'a NUL deep in a list',
      { name: 'Caneca', media: { images: ['https://cdn.example.com/a\u0000.jpg'] } },
      'media.images.0',
    ],
  ] satisfies [string, Partial<ProductCreate>, string][])(
    'createProduct refuses %s with 400 naming the field, and stores nothing',
    async ([, fields, path], { api }) => {
      const response = await api.POST('/api/v1/products', {
        body: withoutDefaults<ProductCreate>({ type: 'DIGITAL', price: 10, ...fields }),
      });
      expect(response.response.status).toBe(400);
      expect(response.error).toEqual(invalid([{ location: 'body', path, reason: expect.any(String) }]));
      const list = await api.GET('/api/v1/products');
      expect(list.data?.data.pagination.total).toBe(0);
    },
  );

  test('createProduct refuses a body that is not valid UTF-8 with 400 naming the body, and stores nothing', async ({
    server,
    tenant,
    api,
  }) => {
    // "Badé" then 0xFF 0xFE (never UTF-8) and an overlong 0xC0 0xA2: a decoder would make each U+FFFD.
    for (const bad of [Buffer.from([0xff, 0xfe]), Buffer.from([0xc0, 0xa2])]) {
      const body = Buffer.concat([Buffer.from('{"name":"Badé '), bad, Buffer.from('","type":"DIGITAL","price":10}')]);
      const response = await fetch(`${server.baseUrl}/api/v1/products`, {
        method: 'POST',
        headers: { ...tenant.headers, 'content-type': 'application/json' },
        body,
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual(
        invalid([{ location: 'body', path: '', reason: 'o corpo não é texto UTF-8 válido' }]),
      );
    }
    const list = await api.GET('/api/v1/products');
    expect(list.data?.data.pagination.total).toBe(0);
  });

  test(`createWebhook refuses a free-form field nested deeper than ${MAX_BODY_DEPTH} levels, naming it, and accepts the limit`, async ({
    api,
  }) => {
    const nest = (depth: number): unknown => (depth === 0 ? 'fundo' : { n: nest(depth - 1) });
    const make = (depth: number) =>
      api.POST('/api/v1/webhooks', {
        body: malformed({
          name: 'fundo',
          url: 'https://hooks.example.com/x',
          events: ['ORDER_PAID'],
          headers: nest(depth),
        }),
      });
    const tooDeep = await make(MAX_BODY_DEPTH);
    expect(tooDeep.response.status).toBe(400);
    expect(tooDeep.error).toEqual(
      invalid([{ location: 'body', path: 'headers', reason: `aninhamento acima de ${MAX_BODY_DEPTH} níveis` }]),
    );
    // One level less is within the limit and reaches the contract validator (a header value must be a string).
    const withinLimit = await make(MAX_BODY_DEPTH - 1);
    expect(withinLimit.response.status).toBe(400);
    const envelope = withinLimit.error;
    expect(envelope).toEqual(invalid(expect.any(Array)));
    const [first] = envelope && typeof envelope.error === 'object' ? (envelope.error.details ?? []) : [];
    expect(first?.path).toMatch(/^headers/);
    expect(first?.reason).not.toContain('aninhamento');
  });

  test('createAutomation answers steps far past their maxItems as it answers one step past it, their length named', async ({
    api,
  }) => {
    const max = contractCount('/components/schemas/Steps/maxItems');
    const withSteps = (count: number) =>
      api.POST('/api/v1/automations', {
        body: malformed({
          name: 'longa',
          trigger_event: 'order.paid',
          steps: Array.from({ length: count }, () => ({})),
        }),
      });
    const onePast = await withSteps(max + 1);
    expect(onePast.response.status).toBe(400);
    const details = detailsOf(onePast.error);
    expect(details).toContainEqual({ location: 'body', path: 'steps', reason: expect.stringMatching(/^itens demais/) });
    expect(details.filter((item) => item.path.startsWith('steps.')).length).toBeGreaterThan(max);
    // Judged no further than one item past the bound: the same answer, not one detail per item sent.
    const farPast = await withSteps(20_000);
    expect(farPast.response.status).toBe(400);
    expect(farPast.error).toEqual(invalid(details));
  });

  test('createWebhook answers headers far past their maxProperties as it answers one past it', async ({ api }) => {
    const max = contractCount('/components/schemas/WebhookCustomHeaders/maxProperties');
    const withHeaders = (count: number) =>
      api.POST('/api/v1/webhooks', {
        body: malformed({
          url: 'https://hooks.example.com/x',
          events: ['order.paid'],
          headers: Object.fromEntries(Array.from({ length: count }, (_, index) => [`(${index}`, 'x'])),
        }),
      });
    const onePast = await withHeaders(max + 1);
    expect(onePast.response.status).toBe(400);
    const details = detailsOf(onePast.error);
    expect(details).toContainEqual({
      location: 'body',
      path: 'headers',
      reason: expect.stringMatching(/^campos demais/),
    });
    expect(details.filter((item) => item.path.startsWith('headers.')).length).toBe(max + 1);
    const farPast = await withHeaders(5_000);
    expect(farPast.error).toEqual(invalid(details));
  });

  test('createProduct with more unknown fields than an error names is refused for the first of them', async ({
    api,
  }) => {
    const max = contractCount('/info/x-max-error-details');
    const unknown = Array.from({ length: max + 50 }, (_, index) => `p${index}`);
    const response = await api.POST('/api/v1/products', {
      body: malformed({
        name: 'Caneca',
        type: 'DIGITAL',
        price: 10,
        ...Object.fromEntries(unknown.map((name) => [name, 1])),
      }),
    });
    expect(response.response.status).toBe(400);
    const reason = 'campo não permitido (must NOT have additional properties)';
    expect(response.error).toEqual(invalid(unknown.slice(0, max).map((path) => ({ location: 'body', path, reason }))));
  });

  test('createProduct stores and getProductById reads back astral and accented text exactly as sent', async ({
    api,
  }) => {
    const name = 'Caneca 😀 ação — ümlaut 𝄞';
    const created = await api.POST('/api/v1/products', {
      body: withoutDefaults<ProductCreate>({ name, type: 'DIGITAL', price: 10 }),
    });
    expect(created.response.status).toBe(201);
    const read = await api.GET('/api/v1/products/{productId}', {
      params: { path: { productId: created.data?.data.product.id ?? '' } },
    });
    expect(read.data?.data.product.name).toBe(name);
  });
});

describeEngines('hostile search and paging through the typed client', () => {
  test('listProducts matches % and _ in search literally', async ({ api }) => {
    for (const name of ['Desconto 100%', 'Caneca azul', 'Kit_presente', 'Kitxpresente']) {
      const created = await api.POST('/api/v1/products', {
        body: withoutDefaults<ProductCreate>({ name, type: 'DIGITAL', price: 10 }),
      });
      expect(created.response.status).toBe(201);
    }
    const names = async (search: string) =>
      (await api.GET('/api/v1/products', { querySerializer: () => searchFor(search) })).data?.data.products.map(
        (p) => p.name,
      );
    expect(await names('%')).toEqual(['Desconto 100%']);
    expect(await names('0%')).toEqual(['Desconto 100%']);
    expect(await names('_')).toEqual(['Kit_presente']);
    expect(await names('t_p')).toEqual(['Kit_presente']);
    expect(await names('!')).toEqual([]);
    expect(await names('KIT')).toEqual(['Kitxpresente', 'Kit_presente']);
  });

  test('listProducts answers a page far past the end with an empty list and the real total, up to the contract bound', async ({
    api,
  }) => {
    const response = await api.GET('/api/v1/products', { params: { query: { page: 1000000, limit: 100 } } });
    expect(response.response.status).toBe(200);
    expect(response.data?.data.products).toEqual([]);
    expect(response.data?.data.pagination).toMatchObject({ page: 1000000, limit: 100, total: expect.any(Number) });
    // Beyond the contract's `page` maximum the request is refused, naming page (never a 5xx).
    const beyond = await api.GET('/api/v1/products', { querySerializer: () => 'page=1e300&limit=100' });
    expect(beyond.response.status).toBe(400);
    expect(beyond.error).toEqual(
      invalid(expect.arrayContaining([{ location: 'query', path: 'page', reason: expect.any(String) }])),
    );
  });

  test.for([
    ['page', '9'.repeat(309)],
    ['limit', '9'.repeat(309)],
    ['page', `-${'9'.repeat(400)}`],
  ])(
    'listProducts refuses a %s in decimal digits past what a number holds with 400 naming it',
    async ([name, value], { api }) => {
      const response = await api.GET('/api/v1/products', { querySerializer: () => `${name}=${value}` });
      expect(response.response.status).toBe(400);
      expect(response.error).toEqual(
        invalid([{ location: 'query', path: name, reason: 'tipo inválido (must be integer)' }]),
      );
    },
  );
});
