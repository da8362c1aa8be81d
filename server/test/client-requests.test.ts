// Issue: partner code that works on the mock must work on the server. The same table of requests, written the
// way common clients write them (axios, URLSearchParams, curl --data-urlencode, Python's urlencode, by hand), goes
// to the mock (`npm run mock`) and to the server; for every stateless case both accept or both refuse, and the
// table says which. Stateful rules (a stored product's image, catalog prices) are out of a stateless mock's reach.

import { once } from 'node:events';
import { connect } from 'node:net';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components, paths } from '../../generated/openapi.ts';
import { bearerFormatExample, readContract } from '../../lib/contract.ts';
import { MALFORMED_ESCAPE } from '../../lib/percent-escapes.ts';
import { BODY_NOT_UTF8 } from '../../lib/storable-text.ts';
import { type MockServer, startMock } from '../../scripts/mock/mock.ts';
import { rawAnswer, untilClosed } from '../../scripts/test-helpers/raw-http.ts';
import { clientOf, withoutDefaults } from './fixture.ts';
import { adminHeaders, createTenant, rawRequest, startServer, type Tenant, type TestServer } from './harness.ts';

interface Case {
  name: string;
  method?: 'GET' | 'POST';
  /** `{product}` is replaced by an existing product id (upper-cased where the case says so). */
  url: string;
  body?: unknown;
  /** Replaces the Authorization scheme `Bearer`. */
  scheme?: string;
  upperStoreId?: boolean;
  accept: boolean;
}

// What clients put on the wire for `{ search: 'Camiseta Básica', createdFrom: '2026-11-01T00:00:00Z' }`.
const params = { search: 'Camiseta Básica', createdFrom: '2026-11-01T00:00:00Z' };
const viaUrlSearchParams = new URLSearchParams(params).toString(); // + for space, %3A for :
const axiosEncode = (value: string) =>
  encodeURIComponent(value).replace(/%3A/gi, ':').replace(/%2C/gi, ',').replace(/%20/g, '+'); // axios buildURL
const viaAxios = Object.entries(params)
  .map(([key, value]) => `${key}=${axiosEncode(value)}`)
  .join('&');
const viaCurl = Object.entries(params) // curl -G --data-urlencode: percent-encoding, %20 for space
  .map(([key, value]) => `${key}=${encodeURIComponent(value)}`)
  .join('&');

const CASES: Case[] = [
  { name: '+ as a space (HTML forms, URLSearchParams)', url: '/api/v1/products?search=Camiseta+Basica', accept: true },
  { name: '%20 as a space', url: '/api/v1/products?search=Camiseta%20Basica', accept: true },
  { name: 'a literal % and _ in search', url: '/api/v1/products?search=50%25_off', accept: true },
  { name: 'raw colons in a date-time', url: '/api/v1/orders?createdFrom=2026-11-01T00:00:00Z', accept: true },
  {
    name: 'URLSearchParams',
    url: `/api/v1/abandoned-carts?createdFrom=${encodeURIComponent(params.createdFrom)}`,
    accept: true,
  },
  {
    name: 'URLSearchParams, search and date',
    url: `/api/v1/orders?${viaUrlSearchParams.replace('search', 'status=PAID&x')}`,
    accept: true,
  },
  { name: 'axios params', url: `/api/v1/orders?${viaAxios.replace('search', 'x')}`, accept: true },
  { name: 'axios search', url: `/api/v1/products?search=${axiosEncode(params.search)}`, accept: true },
  { name: 'curl --data-urlencode', url: `/api/v1/orders?${viaCurl.replace('search', 'x')}`, accept: true },
  { name: 'Python urlencode', url: '/api/v1/products?search=Camiseta+B%C3%A1sica&limit=5', accept: true },
  { name: 'an unknown parameter (cache-buster)', url: '/api/v1/products?limit=1&_=1700000000', accept: true },
  { name: 'events, comma-separated', url: '/api/v1/webhooks?events=ORDER_CREATED,ORDER_PAID', accept: true },
  { name: 'events, encoded comma', url: '/api/v1/webhooks?events=ORDER_CREATED%2CORDER_PAID', accept: true },
  { name: 'an unknown event', url: '/api/v1/webhooks?events=ORDER_LOST', accept: false },
  { name: 'page=1e300', url: '/api/v1/products?page=1e300', accept: false },
  { name: 'page=0', url: '/api/v1/products?page=0', accept: false },
  // A query integer is decimal digits; JavaScript's Number (and a validator's coercion) reads all of these.
  { name: 'limit=0x10', url: '/api/v1/products?limit=0x10', accept: false },
  { name: 'limit=1e1', url: '/api/v1/orders?limit=1e1', accept: false },
  { name: 'page=Infinity', url: '/api/v1/products?page=Infinity', accept: false },
  { name: 'limit=%2010 (a space before)', url: '/api/v1/customers?limit=%2010', accept: false },
  { name: 'page=%2B1 (a plus sign)', url: '/api/v1/products?page=%2B1', accept: false },
  { name: 'limit=010 (leading zero, still decimal)', url: '/api/v1/products?limit=010', accept: true },
  { name: 'page=abc', url: '/api/v1/customers?page=abc', accept: false },
  { name: 'limit=101', url: '/api/v1/orders?limit=101', accept: false },
  { name: 'a date that is not a date-time', url: '/api/v1/orders?createdFrom=2026-11-01', accept: false },
  { name: 'a path uuid in upper case', url: '/api/v1/products/{PRODUCT}', accept: true },
  {
    name: 'a query uuid in upper case',
    url: '/api/v1/products?categoryId=6F1C2D3E-4A5B-4C6D-8E7F-9A0B1C2D3E4F',
    accept: true,
  },
  { name: 'X-Store-Id in upper case', url: '/api/v1/products', upperStoreId: true, accept: true },
  // The contract's uuids are the 36-character form only; Prism's uuid format (ajv-formats') takes a `urn:uuid:` prefix.
  { name: 'a path uuid as a urn', url: '/api/v1/products/urn:uuid:{PRODUCT}', accept: false },
  {
    name: 'a query uuid as a urn',
    url: '/api/v1/products?categoryId=urn:uuid:6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
    accept: false,
  },
  // A date-time names one instant on a real day: Prism takes a leap second and an offset without minutes.
  { name: 'a leap second', url: '/api/v1/orders?createdFrom=2026-12-31T23:59:60Z', accept: false },
  { name: 'an offset without minutes', url: '/api/v1/orders?createdFrom=2026-11-01T00:00:00%2B05', accept: false },
  { name: '30 February', url: '/api/v1/abandoned-carts?createdFrom=2026-02-30T00:00:00Z', accept: false },
  { name: '29 February of a leap year', url: '/api/v1/orders?createdFrom=2028-02-29T00:00:00Z', accept: true },
  {
    name: 'a body date-time with a leap second',
    method: 'POST',
    url: '/api/v1/coupons',
    body: { code: 'LEAP', discountType: 'PERCENT', discountAmount: 5, startsAt: '2026-12-31T23:59:60Z' },
    accept: false,
  },
  {
    name: 'a body uuid as a urn',
    method: 'POST',
    url: '/api/v1/kits',
    body: {
      name: 'Kit',
      price: 10,
      items: [{ productId: 'urn:uuid:6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f', quantity: 1 }],
    },
    accept: false,
  },
  // Text no store can keep as sent (info: Text and nesting).
  { name: 'NUL in search', url: '/api/v1/products?search=a%00b', accept: false },
  { name: 'a lone % in search', url: '/api/v1/products?search=50%_off', accept: false },
  { name: 'a surrogate percent-escaped in search', url: '/api/v1/products?search=%ED%A0%80', accept: false },
  {
    name: 'NUL in a body string',
    method: 'POST',
    url: '/api/v1/categories',
    body: { name: 'Cat\u0000Um' },
    accept: false,
  },
  {
    name: 'a lone surrogate in a body string',
    method: 'POST',
    url: '/api/v1/categories',
    body: { name: 'Cat \ud800 Um' },
    accept: false,
  },
  // RFC 9110 §11.1: the scheme is case-insensitive (Prism's security check is not: the proxy spells it for Prism).
  { name: 'scheme bearer', url: '/api/v1/products', scheme: 'bearer', accept: true },
  { name: 'scheme BEARER', url: '/api/v1/products', scheme: 'BEARER', accept: true },
  {
    name: 'a PERCENT coupon above 100',
    method: 'POST',
    url: '/api/v1/coupons',
    body: { code: 'MEGA150', discountType: 'PERCENT', discountAmount: 150 },
    accept: false,
  },
  {
    name: 'a CPF with 14 digits',
    method: 'POST',
    url: '/api/v1/customers',
    body: { name: 'Ana', email: 'ana@example.com', documentType: 'CPF', documentNumber: '12345678000195' },
    accept: false,
  },
  {
    name: 'a CNPJ with 14 digits',
    method: 'POST',
    url: '/api/v1/customers',
    body: { name: 'Loja Ana', email: 'contato@example.com', documentType: 'CNPJ', documentNumber: '12345678000195' },
    accept: true,
  },
  {
    name: 'ALL with another page',
    method: 'POST',
    url: '/api/v1/metatags',
    body: { name: 'Pixel', content: '<meta name="x" content="y">', pages: ['ALL', 'HOME'] },
    accept: false,
  },
  {
    name: 'a CART_VALUE tier without minValue',
    method: 'POST',
    url: '/api/v1/discount-ranges',
    body: {
      name: 'Faixas',
      ruleType: 'CART_VALUE',
      tiers: [{ minQuantity: 2, discountType: 'PERCENT', discountAmount: 5 }],
    },
    accept: false,
  },
];

describe('the mock and the server agree on which requests they accept', () => {
  let mock: MockServer;
  let server: TestServer;
  let tenant: Tenant;
  let productId: string;

  beforeAll(async () => {
    [mock, server] = await Promise.all([startMock({ port: 0 }), startServer({ engine: 'sqlite' })]);
    tenant = await createTenant(server);
    const created = await clientOf(server, tenant).POST('/api/v1/products', {
      body: withoutDefaults<components['schemas']['ProductCreate']>({
        name: 'Camiseta Básica',
        type: 'DIGITAL',
        price: 79.9,
        media: { images: ['https://cdn.example.com/c.jpg'] },
      }),
    });
    if (!created.data) throw new Error(`createProduct answered ${created.response.status}`);
    productId = created.data.data.product.id;
  }, 60_000);
  afterAll(async () => {
    await Promise.all([mock?.close(), server?.close()]);
  });

  const send = async (baseUrl: string, credentials: Tenant['headers'], given: Case) => {
    const headers: Record<string, string> = { ...credentials };
    if (given.scheme) headers.authorization = headers.authorization?.replace(/^Bearer/, given.scheme) ?? '';
    if (given.upperStoreId) headers['x-store-id'] = headers['x-store-id']?.toUpperCase() ?? '';
    const url = given.url.replace('{PRODUCT}', productId.toUpperCase());
    if (given.body === undefined) return rawRequest(baseUrl, given.method ?? 'GET', url, { headers });
    headers['content-type'] = 'application/json';
    return rawRequest(baseUrl, given.method ?? 'GET', url, { headers, body: JSON.stringify(given.body) });
  };

  /** The whole 400 VALIDATION_ERROR envelope, with these details. */
  const expectValidationError = (answer: { status: number; body: unknown }, details: unknown[]) => {
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      success: false,
      error: { message: 'Os dados enviados são inválidos.', code: 'VALIDATION_ERROR', details },
      meta: { timestamp: expect.any(String), status: 400 },
    });
  };

  const verdict = (status: number) => (status < 400 ? 'accepted' : 'refused');
  // The mock checks that a key has the form the contract's bearerFormat gives (401 otherwise).
  const mockKey = bearerFormatExample(String(readContract().securityScheme('ApiKeyAuth')?.bearerFormat));
  const mockCredentials = () => ({ authorization: `Bearer ${mockKey}`, 'x-store-id': tenant.storeId });
  type Ask = (baseUrl: string, credentials: Record<string, string>) => ReturnType<typeof rawRequest>;
  /** One request to the mock and to the server, each with its own credentials: [the mock's answer, the server's]. */
  const askBoth = (ask: Ask) => Promise.all([ask(mock.url, mockCredentials()), ask(server.baseUrl, tenant.headers)]);
  /** A createProduct with this raw JSON body. */
  const postProduct =
    (body: string): Ask =>
    (baseUrl, credentials) =>
      rawRequest(baseUrl, 'POST', '/api/v1/products', {
        headers: { ...credentials, 'content-type': 'application/json' },
        body,
      });

  it.each(CASES)('$name', async (given) => {
    const [fromMock, fromServer] = await askBoth((baseUrl, credentials) => send(baseUrl, credentials, given));
    const want = given.accept ? 'accepted' : 'refused';
    expect({ mock: verdict(fromMock.status), server: verdict(fromServer.status) }).toEqual({
      mock: want,
      server: want,
    });
    if (!given.accept) expect([fromMock.status, fromServer.status]).toEqual([400, 400]);
  });

  it('both name a query integer not in decimal digits, with the same envelope', async () => {
    const given: Case = { name: 'two at once', url: '/api/v1/products?page=Infinity&limit=0x10', accept: false };
    for (const answer of await askBoth((baseUrl, credentials) => send(baseUrl, credentials, given))) {
      expectValidationError(answer, [
        { location: 'query', path: 'page', reason: 'tipo inválido (must be integer)' },
        { location: 'query', path: 'limit', reason: 'tipo inválido (must be integer)' },
      ]);
    }
  });

  it.for([
    ['no body at all', '', /^campo obrigatório \(/],
    ['a JSON null', 'null', /^tipo inválido \(must be object\)$/],
  ] as const)('both name the body when it is %s, with the same envelope', async ([, body, reason]) => {
    for (const answer of await askBoth(postProduct(body))) {
      expectValidationError(answer, [{ location: 'body', path: '', reason: expect.stringMatching(reason) }]);
    }
  });

  /** An order bump's create, its required fields given, with `fields` besides. */
  const orderBump = (fields: object): Ask => {
    const body = { name: 'Brinde', productId: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f', discountType: 'FIXED' };
    return (baseUrl, credentials) =>
      rawRequest(baseUrl, 'POST', '/api/v1/order-bumps', {
        headers: { ...credentials, 'content-type': 'application/json' },
        body: JSON.stringify({ ...body, discountAmount: 1, title: 'Leve junto', ...fields }),
      });
  };
  it.for([
    [{ startsAt: 'amanhã' }, 'startsAt', 'formato inválido (must match format "date-time")'],
    [{ endsAt: 5 }, 'endsAt', 'tipo inválido (must be string)'],
    [{ productVariantId: 'x' }, 'productVariantId', 'formato inválido (must match format "uuid")'],
  ] as const)(
    'both name a nullable field that fails once, for what is wrong with it: %j',
    async ([fields, path, reason]) => {
      for (const answer of await askBoth(orderBump(fields))) {
        expectValidationError(answer, [{ location: 'body', path, reason }]);
      }
    },
  );

  it('both name a webhook header by its whole name, a `/` in it or none at all', async () => {
    const headers = { 'a/b': 'x', '': 'y' };
    const body = { name: 'Pedidos', url: 'https://example.com/h', events: ['ORDER_CREATED'], headers };
    const ask: Ask = (baseUrl, credentials) =>
      rawRequest(baseUrl, 'POST', '/api/v1/webhooks', {
        headers: { ...credentials, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const notAllowed = 'campo não permitido (must NOT have additional properties)';
    for (const answer of await askBoth(ask)) {
      expectValidationError(answer, [
        { location: 'body', path: 'headers.a/b', reason: notAllowed },
        { location: 'body', path: 'headers', reason: notAllowed },
      ]);
    }
  });

  // A partner's test that reads `details` on the mock reads the same on the server: the same words, in the same order.
  type RefusedAlike = [string, { method?: 'GET' | 'POST' | 'PATCH'; url: string; body?: string; headers?: object }];
  /** A product create with `count` fields the schema does not know: `p0`, `p1`, … */
  const productWithUnknownFields = (count: number): RefusedAlike[1] => ({
    method: 'POST',
    url: '/api/v1/products',
    body: JSON.stringify({
      name: 'xyz',
      type: 'DIGITAL',
      price: 1,
      ...Object.fromEntries(Array.from({ length: count }, (_, index) => [`p${index}`, 1])),
    }),
  });
  const refusedAlike: RefusedAlike[] = [
    [
      'a body wrong in every way',
      {
        method: 'POST',
        url: '/api/v1/products',
        body: '{"name":"ab","type":"X","price":-1,"zzz":1,"logistics":{"q":1}}',
      },
    ],
    ['an empty object', { method: 'POST', url: '/api/v1/products', body: '{}' }],
    ['no body', { method: 'POST', url: '/api/v1/products', body: '' }],
    ['an array for an object', { method: 'POST', url: '/api/v1/products', body: '[]' }],
    ['four query parameters', { url: '/api/v1/products?categoryId=x&status=NOPE&limit=500&page=0' }],
    ['a query escape that does not decode, beside a bound', { url: '/api/v1/products?limit=0&search=%zz' }],
    ['a query integer in another notation beside a bound', { url: '/api/v1/products?limit=0&page=Infinity' }],
    ['a query integer in more digits than a number holds', { url: `/api/v1/products?limit=${'9'.repeat(309)}` }],
    ['the path and the query', { url: '/api/v1/webhooks/xyz/deliveries?page=0&limit=0' }],
    [
      'a header and the body',
      { method: 'POST', url: '/api/v1/products', body: '{"name":5}', headers: { 'idempotency-key': 'a b' } },
    ],
    [
      'a query date-time that is not one',
      { url: '/api/v1/orders?createdFrom=yesterday&createdTo=2026-02-30T00:00:00Z' },
    ],
    [
      'a body date-time that is not one',
      { method: 'POST', url: '/api/v1/order-bumps', body: '{"name":"Brinde","startsAt":"amanhã"}' },
    ],
    [
      'webhook header names that are no token',
      {
        method: 'POST',
        url: '/api/v1/webhooks',
        body: '{"url":"https://example.com/h","events":["order.created"],"headers":{"a/b":"x","":"y","Host":"z"}}',
      },
    ],
    ['a path parameter whose escapes do not decode', { url: '/api/v1/products/%C0%AF' }],
    ...(
      [
        [
          'an action step whose message is too long',
          { type: 'action', name: 'send_whatsapp', data: { message: 'x'.repeat(1001) } },
        ],
        ['a step of an unknown type', { type: 'wait', minutes: 5 }],
        ['a delay step whose minutes are no integer', { type: 'delay', minutes: 'x' }],
      ] as const
    ).map(
      ([name, step]): RefusedAlike => [
        `${name} (a discriminated oneOf)`,
        {
          method: 'POST',
          url: '/api/v1/automations',
          body: JSON.stringify({ name: 'Fluxo', trigger_event: 'pix.generated', steps: [step] }),
        },
      ],
    ),
    [
      'a PHYSICAL product without logistics (an if/then of the schema)',
      { method: 'POST', url: '/api/v1/products', body: '{"name":"Caneca","type":"PHYSICAL","price":10}' },
    ],
    // Past about 8 KiB of violations Prism cuts its account short: the mock then names them itself.
    ['a body with sixty fields the schema does not know', productWithUnknownFields(60)],
    [
      // Judged to one step past the bound (lib/body-bounds.ts), not one detail per step sent.
      'twenty thousand steps, far past their maxItems',
      {
        method: 'POST',
        url: '/api/v1/automations',
        body: JSON.stringify({ name: 'Fluxo', trigger_event: 'pix.generated', steps: Array(20_000).fill({}) }),
      },
    ],
    [
      'webhook headers far past their maxProperties, none a header name',
      {
        method: 'POST',
        url: '/api/v1/webhooks',
        body: JSON.stringify({
          url: 'https://example.com/h',
          events: ['order.created'],
          headers: Object.fromEntries(Array.from({ length: 5_000 }, (_, index) => [`(${index}`, 'x'])),
        }),
      },
    ],
    ['a body with more fields the schema does not know than an error names', productWithUnknownFields(150)],
    [
      'a number too large for a double',
      { method: 'POST', url: '/api/v1/products', body: '{"name":"Caneca","type":"DIGITAL","price":1e400}' },
    ],
    ['X-Store-Id not a uuid', { url: '/api/v1/products', headers: { 'x-store-id': 'nope' } }],
    ['no X-Store-Id', { url: '/api/v1/products', headers: { 'x-store-id': undefined } }],
    ['a body that is not JSON', { method: 'POST', url: '/api/v1/products', body: '{"name":' }],
    ['an update without a body', { method: 'PATCH', url: '/api/v1/products/6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f' }],
    ['an update without a body, its id not a uuid', { method: 'PATCH', url: '/api/v1/products/xyz' }],
    [
      'an update with no field',
      { method: 'PATCH', url: '/api/v1/products/6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f', body: '{}' },
    ],
    [
      'X-Store-Id not a uuid, and a body wrong too',
      { method: 'POST', url: '/api/v1/products', body: '{"name":1}', headers: { 'x-store-id': 'nope' } },
    ],
    [
      'X-Store-Id not a uuid, and a body that is not JSON',
      { method: 'POST', url: '/api/v1/products', body: '{', headers: { 'x-store-id': 'nope' } },
    ],
    ['no X-Store-Id, and a query out of bounds', { url: '/api/v1/products?page=0', headers: { 'x-store-id': '' } }],
    [
      'X-Store-Id with a urn: prefix, and a query integer in another notation',
      {
        url: '/api/v1/products?page=Infinity',
        headers: { 'x-store-id': 'urn:uuid:6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f' },
      },
    ],
  ];
  it.each(refusedAlike)('both word and order the details alike: %s', async (_name, given) => {
    const ask: Ask = (baseUrl, credentials) => {
      const headers = Object.fromEntries(
        Object.entries({ ...credentials, 'content-type': 'application/json', ...given.headers }).filter(
          (entry): entry is [string, string] => typeof entry[1] === 'string',
        ),
      );
      return rawRequest(baseUrl, given.method ?? 'GET', given.url, {
        headers,
        ...(given.body === undefined ? {} : { body: given.body }),
      });
    };
    const [fromMock, fromServer] = await askBoth(ask);
    const details = (fromServer.body as { error: { details: unknown[] } }).error.details;
    expectValidationError(fromServer, details);
    expect(details.length).toBeGreaterThan(0);
    expectValidationError(fromMock, details);
  });

  /** Headers as the lines of a raw HTTP request. */
  const headerLines = (headers: Record<string, string>) =>
    Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
  /** A GET of `url` sent as raw bytes, as written: fetch would resolve its dot segments and escapes itself. */
  const getAsSent =
    (url: string): Ask =>
    async (baseUrl, credentials) => {
      const request = `GET ${url} HTTP/1.1\r\nHost: x\r\n${headerLines(credentials)}Connection: close\r\n\r\n`;
      const answer = await rawAnswer(Number(new URL(baseUrl).port), request);
      return { ...answer, headers: new Headers(answer.headers) };
    };
  /** The statuses of the raw HTTP answers on one connection, in order, as an answer's body. */
  const statusesOf = (raw: string) => ({
    status: 0,
    headers: new Headers(),
    body: (raw.match(/HTTP\/1\.1 \d{3}/g) ?? []).map((line) => Number(line.slice(9))),
  });

  it.for([
    ['DELETE', '/api/v1/products', 'GET, POST, HEAD'],
    ['OPTIONS', '/api/v1/products', 'GET, POST, HEAD'],
    ['PUT', '/api/v1/coupons/6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f', 'GET, PATCH, HEAD'],
    // A literal path is the path, whatever the method: not `/automations/{automationId}` with the id `validate`.
    ['GET', '/api/v1/automations/validate', 'POST'],
    ['OPTIONS', '/api/v1/automations/validate', 'POST'],
  ] as const)(
    'both answer %s %s, a method the path lacks, with the 405 envelope and the same Allow, and no CORS',
    async ([method, url, allow]) => {
      // No credentials: the route is looked up before any key is.
      const answers = await Promise.all([mock.url, server.baseUrl].map((base) => rawRequest(base, method, url, {})));
      for (const answer of answers) {
        expect({ status: answer.status, allow: answer.headers.get('allow'), body: answer.body }).toEqual({
          status: 405,
          allow,
          body: {
            success: false,
            error: { message: 'Método não permitido para esta rota.', code: 'METHOD_NOT_ALLOWED' },
            meta: { timestamp: expect.any(String), status: 405 },
          },
        });
        expect([...answer.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
      }
    },
  );

  it.for([
    ['a method the path lacks, garbage pipelined behind it', 'PUT', 'GARBAGE\r\n\r\n', [405, 400]],
    [
      'no key, a request pipelined behind it after Connection: close',
      'POST',
      'GET / HTTP/1.1\r\nHost: x\r\n\r\n',
      [401],
    ],
  ] as const)('both answer a request before the bytes behind it: %s', async ([, method, behind, statuses]) => {
    const closeOrNot = method === 'POST' ? 'Connection: close\r\n' : '';
    const asSent: Ask = async (baseUrl, credentials) => {
      const auth = method === 'PUT' ? headerLines(credentials) : '';
      const socket = connect(Number(new URL(baseUrl).port), '127.0.0.1');
      socket.write(
        `${method} /api/v1/products HTTP/1.1\r\nHost: x\r\n${auth}Content-Type: application/json\r\n` +
          `Content-Length: 2\r\n${closeOrNot}\r\n{}${behind}`,
      );
      return statusesOf(await untilClosed(socket));
    };
    for (const answer of await askBoth(asSent)) expect(answer.body).toEqual(statuses);
  });

  it('both invite the body of a request whose headers pass, then answer a body not sent as JSON with 415', async () => {
    const asSent: Ask = async (baseUrl, credentials) => {
      const socket = connect(Number(new URL(baseUrl).port), '127.0.0.1');
      socket.write(
        `POST /api/v1/products HTTP/1.1\r\nHost: x\r\n${headerLines(credentials)}Content-Type: text/plain\r\n` +
          'Content-Length: 2\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n',
      );
      const [invited] = await once(socket, 'data');
      socket.write('{}');
      return statusesOf(`${invited}${await untilClosed(socket)}`);
    };
    for (const answer of await askBoth(asSent)) expect(answer.body).toEqual([100, 415]);
  });

  it('both read a JSON body as the server reads it: a UTF-8 byte order mark skipped (alone, no body), UTF-16 malformed', async () => {
    const product = (name: string) => JSON.stringify({ name, type: 'DIGITAL', price: 10 });
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    const send =
      (bytes: Buffer): Ask =>
      (baseUrl, credentials) =>
        rawRequest(baseUrl, 'POST', '/api/v1/products', {
          headers: { ...credentials, 'content-type': 'application/json' },
          body: new Uint8Array(bytes),
        });
    const [fromMock, fromServer] = await askBoth(send(Buffer.concat([bom, Buffer.from(product('Caneca BOM'))])));
    expect([fromMock.status, fromServer.status]).toEqual([201, 201]);
    const missing = [{ location: 'body', path: '', reason: "campo obrigatório (must have required property 'body')" }];
    for (const answer of await askBoth(send(bom))) expectValidationError(answer, missing);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(product('Caneca UTF-16'), 'utf16le')]);
    const [mockRefusal, serverRefusal] = await askBoth(send(utf16));
    const details = (serverRefusal.body as { error: { details: unknown[] } }).error.details;
    expect(details).toEqual([{ location: 'body', path: '', reason: expect.stringMatching(/^JSON malformado/) }]);
    expectValidationError(mockRefusal, details);
  });

  it.for([
    '/api/v1/./products',
    '/api/v1/x/../products',
    '/api/v1/x/%2e%2e/products',
    '/api/v1/%70roducts',
    '/api/v1/products/',
  ])('both answer %s, a path of the contract only once resolved or decoded, with the 404 envelope', async (url) => {
    for (const answer of await askBoth(getAsSent(url))) {
      expect({ status: answer.status, body: answer.body }).toEqual({
        status: 404,
        body: {
          success: false,
          error: { message: 'Rota não encontrada.', code: 'ROUTE_NOT_FOUND' },
          meta: { timestamp: expect.any(String), status: 404 },
        },
      });
    }
  });

  it.for(['.', '%2e', '..', 'a.b'])('both name a path parameter sent as %s once, as sent', async (id) => {
    // Prism reads the path with its dot segments resolved, and named the parameter again as missing.
    const notUuid = { location: 'path', path: 'productId', reason: 'formato inválido (must match format "uuid")' };
    for (const answer of await askBoth(getAsSent(`/api/v1/products/${id}`))) expectValidationError(answer, [notUuid]);
  });

  it('both name a path escape that does not decode before a body that is not UTF-8, and such a body alone', async () => {
    // `Café` in Latin-1: é is one byte no UTF-8 sequence starts with.
    const latin1 = Buffer.concat([Buffer.from('{"name":"Caf'), Buffer.from([0xe9]), Buffer.from('"}')]);
    const patch =
      (url: string): Ask =>
      (baseUrl, credentials) =>
        rawRequest(baseUrl, 'PATCH', url, {
          headers: { ...credentials, 'content-type': 'application/json' },
          body: new Uint8Array(latin1),
        });
    const undecoded = { location: 'path', path: 'productId', reason: MALFORMED_ESCAPE };
    for (const answer of await askBoth(patch('/api/v1/products/%C0%AF'))) expectValidationError(answer, [undecoded]);
    const product = '/api/v1/products/6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
    for (const answer of await askBoth(patch(product))) expectValidationError(answer, [BODY_NOT_UTF8]);
  });

  it('both label and frame a JSON answer alike: UTF-8 JSON, by its length', async () => {
    const answers = await askBoth((baseUrl, credentials) =>
      rawRequest(baseUrl, 'GET', '/api/v1/categories', { headers: credentials }),
    );
    for (const answer of answers) {
      expect({
        status: answer.status,
        type: answer.headers.get('content-type'),
        length: Number(answer.headers.get('content-length')) > 0,
        chunked: answer.headers.get('transfer-encoding'),
      }).toEqual({ status: 200, type: 'application/json; charset=utf-8', length: true, chunked: null });
    }
  });

  it("both answer a HEAD as the path's GET without its body", async () => {
    const [fromMock, fromServer] = await askBoth((baseUrl, credentials) =>
      rawRequest(baseUrl, 'HEAD', '/api/v1/products', { headers: credentials }),
    );
    for (const answer of [fromMock, fromServer]) {
      expect({ status: answer.status, body: answer.body }).toEqual({ status: 200, body: undefined });
      expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    }
  });

  it('both word every kind of detail as the validator does', async () => {
    const body = '{"name":"ab","type":"X","price":-1,"zzz":1,"logistics":{"q":1}}';
    for (const answer of await askBoth(postProduct(body))) {
      expectValidationError(answer, [
        { location: 'body', path: 'zzz', reason: 'campo não permitido (must NOT have additional properties)' },
        { location: 'body', path: 'name', reason: 'texto curto demais (must NOT have fewer than 3 characters)' },
        {
          location: 'body',
          path: 'type',
          reason: 'valor não permitido (must be equal to one of the allowed values: PHYSICAL, DIGITAL)',
        },
        { location: 'body', path: 'price', reason: 'valor abaixo do mínimo (must be >= 0.01)' },
        ...['height', 'width', 'length', 'weight'].map((field) => ({
          location: 'body',
          path: `logistics.${field}`,
          reason: `campo obrigatório (must have required property '${field}')`,
        })),
        { location: 'body', path: 'logistics.q', reason: 'campo não permitido (must NOT have additional properties)' },
      ]);
    }
  });

  it('createStore keeps the admin token scheme case-insensitive too', async () => {
    const headers = { authorization: adminHeaders(server).authorization.replace('Bearer', 'bearer') };
    const admin = createClient<paths>({ baseUrl: server.baseUrl, headers });
    const store = await admin.POST('/admin/stores', {
      body: withoutDefaults<components['schemas']['StoreCreate']>({ name: 'Loja B' }),
    });
    expect(store.response.status).toBe(201);
  });
});
