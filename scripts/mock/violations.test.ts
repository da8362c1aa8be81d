// Prism's violations (as its `sl-violations` header has them) → the contract's error.details.
import { describe, expect, it } from 'vitest';
import { type PrismViolation, violationDetails } from './violations.ts';

const v = (location: string[], code: string, message: string): PrismViolation => ({
  location,
  code,
  message,
  severity: 'Error',
});

describe('violationDetails', () => {
  const cases: [string, { given: PrismViolation[]; want: [string, string][] }][] = [
    [
      'a missing property is named by its own path',
      {
        given: [v(['request', 'body'], 'required', "Request body must have required property 'name'")],
        want: [['body', 'name']],
      },
    ],
    [
      'a missing body, which Prism places on the request itself, is the body',
      { given: [v(['request'], 'required', 'Body parameter is required')], want: [['body', '']] },
    ],
    [
      'nested, with the property Prism names in its message',
      {
        given: [
          v(
            ['request', 'body', 'logistics'],
            'required',
            "Request body property logistics must have required property 'height'",
          ),
          v(
            ['request', 'body', 'logistics', 'weight'],
            'type',
            'Request body property logistics.weight must be number',
          ),
        ],
        want: [
          ['body', 'logistics.height'],
          ['body', 'logistics.weight'],
        ],
      },
    ],
    [
      'an unknown property',
      {
        given: [
          v(
            ['request', 'body'],
            'additionalProperties',
            "Request body must NOT have additional properties; found 'zzz'",
          ),
        ],
        want: [['body', 'zzz']],
      },
    ],
    [
      'a query parameter keeps the contract spelling Prism lower-cased',
      {
        given: [
          v(
            ['request', 'query', 'categoryid'],
            'format',
            'Request query parameter categoryid must match format "uuid"',
          ),
        ],
        want: [['query', 'categoryId']],
      },
    ],
    [
      'a header stays lower-case',
      {
        given: [v(['request', 'header', 'X-Store-Id'], 'format', 'must match format "uuid"')],
        want: [['header', 'x-store-id']],
      },
    ],
    [
      'violations of the response and warnings are left out',
      {
        given: [
          v(['response', 'body'], 'required', "must have required property 'id'"),
          { ...v(['request', 'query', 'limit'], 'type', 'must be integer'), severity: 'Warning' },
        ],
        want: [],
      },
    ],
  ];
  it("words each reason as the server's validator does: without Prism's account of where the value is", () => {
    const details = violationDetails([
      v(['request', 'body', 'name'], 'minLength', 'Request body property name must NOT have fewer than 3 characters'),
      v(['request', 'body'], 'additionalProperties', "Request body must NOT have additional properties; found 'zzz'"),
      v(['request', 'query', 'page'], 'minimum', 'Request query parameter page must be >= 1'),
      v(['request'], 'required', 'Body parameter is required'),
      v(
        ['request', 'body', 'headers', 'Host'],
        'false schema',
        'Request body property headers.Host boolean schema is false',
      ),
    ]);
    expect(details.map((d) => d.reason)).toEqual([
      'texto curto demais (must NOT have fewer than 3 characters)',
      'campo não permitido (must NOT have additional properties)',
      'valor abaixo do mínimo (must be >= 1)',
      "campo obrigatório (must have required property 'body')",
      'campo não permitido (boolean schema is false)',
    ]);
  });

  it.each(cases)('%s', (_name, { given, want }) => {
    const details = violationDetails(given, ['categoryId', 'X-Store-Id']);
    expect(details.map((d) => [d.location, d.path])).toEqual(want);
    for (const detail of details) expect(detail.reason).toMatch(/^[a-zãáéíóúç ]+ \(/);
  });
});
