// The shared reader on openapi.yaml and on small inline documents: what each caller relies on.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  bearerFormatExample,
  bearerFormatPattern,
  CONTRACT_PATH,
  ContractDocument,
  credentialFormat,
  type JsonObject,
  parsedCopy,
  sha256,
} from './contract.ts';

const tiny: JsonObject = {
  security: [{ ApiKeyAuth: [] }],
  paths: {
    '/things/{thingId}': {
      parameters: [{ $ref: '#/components/parameters/ThingId' }],
      get: {
        operationId: 'getThing',
        security: [{ ApiKeyAuth: ['things:read'] }],
        responses: { '404': { $ref: '#/components/responses/NotFound' } },
      },
      post: {
        operationId: 'replaceThing',
        parameters: [{ name: 'Idempotency-Key', in: 'header', schema: { type: 'string' } }],
        responses: {},
      },
    },
  },
  components: {
    parameters: { ThingId: { name: 'thingId', in: 'path', required: true, schema: { type: 'string' } } },
    responses: {
      NotFound: {
        content: {
          'application/json': {
            examples: { Missing: { $ref: '#/components/examples/Missing' }, Other: { value: { n: 2 } } },
          },
        },
      },
    },
    examples: { Missing: { value: { n: 1 } } },
  },
};

describe('ContractDocument', () => {
  const contract = new ContractDocument(tiny);
  const [get, post] = contract.listOperations();

  it('reads operations with their security, idempotency and resolved parameters', () => {
    expect(get).toMatchObject({
      operationId: 'getThing',
      method: 'get',
      path: '/things/{thingId}',
      pointer: '/paths/~1things~1{thingId}/get',
      scheme: 'ApiKeyAuth',
      scopes: ['things:read'],
      idempotent: false,
      parameters: [{ name: 'thingId', in: 'path', required: true, schema: { type: 'string' } }],
    });
    expect(post).toMatchObject({ operationId: 'replaceThing', scheme: 'ApiKeyAuth', scopes: [], idempotent: true });
    expect(post?.parameters.map((p) => p.name)).toEqual(['thingId', 'Idempotency-Key']);
  });

  it('finds named examples through $refs, first one first', () => {
    const responses = get?.raw.responses as JsonObject;
    expect(contract.examples(responses['404'])).toEqual([
      { name: 'Missing', value: { n: 1 } },
      { name: 'Other', value: { n: 2 } },
    ]);
    expect(contract.firstExample(responses['404'])).toEqual({ n: 1 });
  });

  it('refuses a $ref it cannot follow', () => {
    expect(() => contract.deref({ $ref: 'other.yaml#/x' })).toThrow('Cannot follow $ref other.yaml#/x');
  });

  it.each([
    ['ApiKeyAuth', 'sf_live_<43 base64url characters>'],
    ['CheckoutApiKey', 'sf_checkout_<43 base64url characters>'],
    ['AdminToken', undefined],
  ])("reads openapi.yaml's %s key format from its security scheme (bearerFormat, x-key-format)", (name, expected) => {
    const contract = ContractDocument.load();
    const format = credentialFormat(contract.securityScheme(name));
    expect(format).toBe(expected);
    if (format === undefined) return;
    const pattern = bearerFormatPattern(format);
    expect(pattern.test(bearerFormatExample(format))).toBe(true);
    expect(pattern.test('hello')).toBe(false);
  });
});

describe('bearerFormatPattern', () => {
  const cases: [string, { given: string; accepts: string[]; refuses: string[] }][] = [
    [
      'prefix and counted base64url',
      { given: 'sk_<4 base64url characters>', accepts: ['sk_ab-_'], refuses: ['sk_abc', 'sk_ab+c', 'xk_abcd'] },
    ],
    ['uncounted placeholder', { given: 'tok.<anything>', accepts: ['tok.x1'], refuses: ['tok.', 'tokx1'] }],
    ['no placeholder', { given: 'JWT', accepts: ['JWT'], refuses: ['JWTX'] }],
  ];
  it.each(cases)('%s', (_name, { given, accepts, refuses }) => {
    const pattern = bearerFormatPattern(given);
    for (const value of accepts) expect(pattern.test(value), value).toBe(true);
    for (const value of refuses) expect(pattern.test(value), value).toBe(false);
  });
});

describe('the generated parse of openapi.yaml', () => {
  const text = readFileSync(CONTRACT_PATH, 'utf8');

  it('is what parsing openapi.yaml gives, and what ContractDocument.load reads', () => {
    const parsed = parse(text) as JsonObject;
    expect(parsedCopy(text)).toEqual(parsed);
    expect(ContractDocument.load().doc).toEqual(parsed);
  });

  it('is not used for another text: an edited contract not yet regenerated is parsed from its YAML', () => {
    const copy = path.join(mkdtempSync(path.join(tmpdir(), 'contract-')), 'openapi.json');
    writeFileSync(copy, JSON.stringify({ sourceSha256: sha256(text), contract: { openapi: '3.1.0' } }));
    expect(parsedCopy(text, copy)).toEqual({ openapi: '3.1.0' });
    expect(parsedCopy(`${text}\n# edited`, copy)).toBeUndefined();
    writeFileSync(copy, 'not json');
    expect(parsedCopy(text, copy)).toBeUndefined();
  });
});
