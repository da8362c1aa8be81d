// Every reason the server (and lib/, shared with the mock) words is the contract's (`ErrorDetail` › `reason` ›
// `x-reasons`): the ids it names are stated, every stated reason is named, and the `Rule…` examples show the reasons
// the server gives.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isConditionalSummary } from '../../lib/ajv-errors.ts';
import { isObject, type Json } from '../../lib/contract.ts';
import { keywordReason, reason } from '../../lib/reasons.ts';
import { wordingOf } from '../../lib/worded.ts';
import { contractOperations, loadContract, servedContract } from './contract.ts';
import { documentProblem } from './domain/contact.ts';

const contract = loadContract() as unknown as {
  components: {
    schemas: { ErrorDetail: { properties: { reason: { 'x-reasons': Record<string, string> } } } };
    examples: Record<string, { value?: { error?: { details?: { reason: string; rule?: string }[] } } }>;
  };
};
const stated = contract.components.schemas.ErrorDetail.properties.reason['x-reasons'];

/** Where reasons are worded: the server, lib/ (shared with the mock) and the mock. */
const ROOT = path.resolve(import.meta.dirname, '../..');
const sources = ['server/src', 'lib', 'scripts/mock'].flatMap((folder) =>
  (readdirSync(path.join(ROOT, folder), { recursive: true }) as string[])
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .map((file) => readFileSync(path.join(ROOT, folder, file), 'utf8')),
);

/** The arguments, as written, of the call whose `(` is just before `start` (split at its own commas). */
function argumentsFrom(text: string, start: number): string[] {
  const args: string[] = [];
  let depth = 0;
  let from = start;
  for (let at = start; at < text.length; at += 1) {
    const char = text[at] ?? '';
    if ('([{'.includes(char)) depth += 1;
    else if (depth === 0 && (char === ',' || char === ')')) {
      args.push(text.slice(from, at).trim());
      from = at + 1;
      if (char === ')') break;
    } else if (')]}'.includes(char)) depth -= 1;
  }
  return args.filter((arg) => arg !== '');
}

/**
 * The reason ids the server names: those given to `reason('…')`, and the rule id of each `ruleViolation('…', …)`
 * worded by the rule's own reason (no third argument, or the values of its placeholders): one given the reason of
 * a case names that case's id where that reason is made.
 */
function namedReasons(): Set<string> {
  const named = new Set<string>();
  for (const text of sources) {
    for (const [, id] of text.matchAll(/\breason\(\s*'([^']+)'/g)) if (id) named.add(id);
    for (const call of text.matchAll(/\bruleViolation\(\s*'([^']+)'/g)) {
      const because = argumentsFrom(text, (call.index ?? 0) + call[0].indexOf('(') + 1)[2];
      if (call[1] && (because === undefined || because.startsWith('{'))) named.add(call[1]);
    }
  }
  return named;
}

describe('reasons: the server words none the contract does not state', () => {
  const named = namedReasons();

  it('finds the reasons the server names', () => {
    expect(named.size).toBeGreaterThan(40);
  });

  it('states every reason the server names', () => {
    expect([...named].filter((id) => !Object.hasOwn(stated, id))).toEqual([]);
  });

  it('states no reason the server never names', () => {
    expect(Object.keys(stated).filter((id) => !named.has(id))).toEqual([]);
  });

  it('shows in every example of a rule a reason the contract states', () => {
    const shown = Object.entries(contract.components.examples).flatMap(([name, example]) =>
      (example.value?.error?.details ?? [])
        .filter(({ rule }) => rule !== undefined)
        .map((detail) => ({ name, ...detail })),
    );
    expect(shown.length).toBeGreaterThanOrEqual(10);
    // The rule's own reason, or one of its cases' (`<rule id>.<case>`).
    const wordsOf = (rule = '') =>
      Object.entries(stated)
        .filter(([id]) => id === rule || id.startsWith(`${rule}.`))
        .map(([, template]) => wordingOf(template));
    expect(shown.filter(({ rule, reason }) => !wordsOf(rule).some((words) => words.test(reason)))).toEqual([]);
  });
});

/**
 * The JSON Schema keywords that fail with an error of their own (ajv's), where their value can fail at all, and
 * that is reported: not an `if`, whose `then` or `else` names the fields (lib/ajv-errors.ts).
 */
const FAILING_KEYWORDS = new Set(
  [
    ...['type', 'enum', 'const', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum'],
    ...['maxLength', 'minLength', 'pattern', 'format', 'maxItems', 'minItems', 'uniqueItems', 'contains'],
    ...['maxProperties', 'minProperties', 'required', 'dependentRequired', 'additionalProperties'],
    ...['unevaluatedProperties', 'unevaluatedItems', 'propertyNames', 'not', 'oneOf', 'anyOf', 'if', 'discriminator'],
  ].filter((keyword) => !isConditionalSummary(keyword)),
);
/** Where subschemas are: maps of them, lists of them, and one each. */
const SCHEMA_MAPS = ['properties', 'patternProperties', 'dependentSchemas'];
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SCHEMA_VALUES = [
  'items',
  'additionalProperties',
  'unevaluatedProperties',
  'not',
  'propertyNames',
  'then',
  'else',
];

/** The keywords `schema` can fail on, `false schema` for a schema that is `false`, into `found`. */
function failingKeywords(schema: Json | undefined, found: Set<string>, seen = new Set<string>()): Set<string> {
  if (schema === false) found.add('false schema');
  if (!isObject(schema)) return found;
  if (typeof schema.$ref === 'string') {
    if (seen.has(schema.$ref)) return found;
    seen.add(schema.$ref);
  }
  const resolved = servedContract.deref(schema);
  if (!isObject(resolved)) return failingKeywords(resolved, found, seen);
  for (const [keyword, value] of Object.entries(resolved)) {
    if (FAILING_KEYWORDS.has(keyword) && value !== true) found.add(keyword);
  }
  // An `if` only chooses between `then` and `else`: what fails inside it is never reported.
  const nested = [
    ...SCHEMA_MAPS.flatMap((key) => (isObject(resolved[key]) ? Object.values(resolved[key]) : [])),
    ...SCHEMA_LISTS.flatMap((key) => (Array.isArray(resolved[key]) ? resolved[key] : [])),
    ...SCHEMA_VALUES.map((key) => resolved[key]),
  ];
  for (const subschema of nested) failingKeywords(subschema, found, seen);
  return found;
}

describe('reasons of schema keywords', () => {
  it('words every keyword a request can fail on (x-keyword-reasons), so no reason is the validator English alone', () => {
    const found = new Set<string>();
    for (const operation of servedContract.listOperations()) {
      for (const parameter of operation.parameters) failingKeywords(parameter.schema, found);
    }
    for (const operation of contractOperations) failingKeywords(operation.jsonBodySchema, found);
    expect(found).toContain('required');
    expect(found).toContain('false schema');
    expect([...found].filter((keyword) => keywordReason(keyword) === undefined)).toEqual([]);
  });
});

describe('reason', () => {
  it('fills the placeholders of the stated reason', () => {
    expect(reason('product-not-found', { id: 'abc' })).toBe('produto não encontrado: abc');
    expect(reason('template-sms-length', { max: 160 })).toBe('SMS com no máximo 160 caracteres');
    expect(reason('product-discounted-below-price')).toBe('deve ser menor que price');
  });

  it('reads a list as alternatives in the language of the contract (info x-language)', () => {
    expect(reason('customer-document-digits.type-unknown', { types: ['CPF', 'CNPJ'] })).toBe('deve ser CPF ou CNPJ');
    expect(reason('customer-document-digits.type-unknown', { types: ['CPF', 'CNPJ', 'RG'] })).toBe(
      'deve ser CPF, CNPJ ou RG',
    );
    expect(documentProblem('RG', '123')).toBe('deve ser CPF ou CNPJ');
  });

  it('refuses an id the contract does not state, and a placeholder left without a value', () => {
    expect(() => reason('not-a-reason')).toThrow('the contract states no reason not-a-reason');
    expect(() => reason('toString')).toThrow('the contract states no reason toString');
    expect(() => reason('product-not-found')).toThrow("the contract's reason product-not-found names {id}");
  });
});
