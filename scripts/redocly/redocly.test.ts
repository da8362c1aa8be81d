// The lint rules: the stand-in contract is clean, each broken convention is caught
// at the right place, and openapi.yaml lints with zero errors and zero warnings.
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { FIXTURE_SPEC, REDOCLY_CLI, runNode, specsUnderTest, writeTempSpec } from '../test-helpers/run.ts';

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

function lint(spec: string): LintReport {
  const result = runNode([REDOCLY_CLI, 'lint', spec, '--format', 'json', '--lint-config', 'error'], {
    REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  });
  return JSON.parse(result.stdout) as LintReport;
}

// biome-ignore lint/suspicious/noExplicitAny: test mutations poke at an untyped YAML tree
type Doc = any;

const cases: [string, { given: (doc: Doc) => void; want: { ruleId: string; pointer: string } }][] = [
  [
    'operation without tags',
    {
      given: (doc) => delete doc.paths['/api/v1/products'].get.tags,
      want: { ruleId: 'storefront/operation-tags', pointer: '#/paths/~1api~1v1~1products/get' },
    },
  ],
  [
    'x-provenance outside the set',
    {
      given: (doc) => {
        doc.paths['/api/v1/products'].get['x-provenance'] = 'guessed';
      },
      want: { ruleId: 'storefront/operation-provenance', pointer: '#/paths/~1api~1v1~1products/get/x-provenance' },
    },
  ],
  [
    'description without a provenance marker',
    {
      given: (doc) => {
        doc.paths['/api/v1/orders'].get.description = 'Lists orders.';
      },
      want: { ruleId: 'storefront/operation-provenance', pointer: '#/paths/~1api~1v1~1orders/get/description' },
    },
  ],
  [
    'marker disagrees with x-provenance',
    {
      given: (doc) => {
        doc.paths['/api/v1/products'].post.description = '**Inferred** — Creates a product.';
      },
      want: { ruleId: 'storefront/operation-provenance', pointer: '#/paths/~1api~1v1~1products/post/description' },
    },
  ],
  [
    'security requirement without a scope',
    {
      given: (doc) => {
        doc.paths['/api/v1/products'].post.security = [{ ApiKeyAuth: [] }];
      },
      want: { ruleId: 'storefront/operation-scope', pointer: '#/paths/~1api~1v1~1products/post/security' },
    },
  ],
  [
    'no 429 response',
    {
      given: (doc) => delete doc.paths['/api/v1/products/{productId}'].get.responses['429'],
      want: {
        ruleId: 'storefront/operation-rate-limited',
        pointer: '#/paths/~1api~1v1~1products~1{productId}/get/responses',
      },
    },
  ],
  [
    'response without X-Request-Id',
    {
      given: (doc) => delete doc.paths['/api/v1/products'].get.responses['200'].headers,
      want: {
        ruleId: 'storefront/response-request-id',
        pointer: '#/paths/~1api~1v1~1products/get/responses/200',
      },
    },
  ],
  [
    'response without RateLimit',
    {
      given: (doc) => delete doc.paths['/api/v1/products'].get.responses['200'].headers['RateLimit-Policy'],
      want: {
        ruleId: 'storefront/response-rate-limit',
        pointer: '#/paths/~1api~1v1~1products/get/responses/200',
      },
    },
  ],
  [
    'a 2xx whose RateLimit is optional',
    {
      given: (doc) => {
        doc.paths['/api/v1/products'].get.responses['200'].headers.RateLimit = { schema: { type: 'string' } };
      },
      want: {
        ruleId: 'storefront/response-rate-limit',
        pointer: '#/paths/~1api~1v1~1products/get/responses/200',
      },
    },
  ],
  [
    'inferred schema without an **Inferred** description',
    {
      given: (doc) => {
        doc.components.schemas.Order.description = 'Order.';
      },
      want: { ruleId: 'storefront/schema-provenance', pointer: '#/components/schemas/Order/description' },
    },
  ],
  [
    'unused component',
    {
      given: (doc) => {
        doc.components.schemas.Unused = { type: 'object' };
      },
      want: { ruleId: 'no-unused-components', pointer: '#/components/schemas/Unused' },
    },
  ],
  [
    'example with a property the schema does not have',
    {
      given: (doc) => {
        doc.components.examples.NewProduct.value.colour = 'red';
      },
      want: { ruleId: 'no-invalid-media-type-examples', pointer: '#/components/examples/NewProduct/value/colour' },
    },
  ],
  [
    'parameter example off its schema',
    {
      given: (doc) => {
        doc.components.parameters.StoreId.example = 'not-a-uuid';
      },
      want: { ruleId: 'no-invalid-parameter-examples', pointer: '#/components/parameters/StoreId/example' },
    },
  ],
  [
    'example text a Postman tool reads as a variable',
    {
      given: (doc) => {
        doc.components.examples.NewProduct.value.name = 'Olá {{customer.name}}, bem-vindo';
      },
      want: { ruleId: 'storefront/example-postman-safe', pointer: '#/components/examples/NewProduct/value/name' },
    },
  ],
];

describe('redocly lint (redocly.yaml + scripts/redocly)', () => {
  it('accepts the stand-in contract with no problem at all', () => {
    const report = lint(FIXTURE_SPEC);
    expect(report.problems).toEqual([]);
  });

  it('exempts /admin, /checkout and webhooks from the scope and 429 rules', async () => {
    const doc: Doc = parse(await readFile(FIXTURE_SPEC, 'utf8'));
    expect(doc.paths['/api/v1/admin/stores'].get.security).toEqual([{ AdminToken: [] }]);
    expect(doc.webhooks.orderCreated.post.responses['429']).toBeUndefined();
    expect(lint(FIXTURE_SPEC).totals.errors).toBe(0);
  });

  it.concurrent.each(cases)('reports %s', async (_name, { given, want }) => {
    const doc: Doc = parse(await readFile(FIXTURE_SPEC, 'utf8'));
    given(doc);
    const report = lint(await writeTempSpec(doc));
    const found = report.problems.map((p) => ({ ruleId: p.ruleId, pointer: p.location[0]?.pointer }));
    expect(found).toContainEqual(want);
    expect(report.problems.every((p) => p.severity === 'error')).toBe(true);
  });

  it.each(specsUnderTest())('%s lints with zero errors and zero warnings', (_name, spec) => {
    const report = lint(spec);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });
});
