// Table-driven tests of the case generator on a tiny contract: each constraint gives the value just outside
// (invalid) and just inside (valid), and only values the schema itself agrees with.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Contract, type Json } from './lib/contract.ts';
import { kindOf } from './lib/kinds.ts';
import { bodyCases, minimalBody, setPath } from './lib/values.ts';

const contract = new Contract(path.join(import.meta.dirname, 'fixtures/tiny-openapi.yaml'));
const op = contract.operations[0];
const schema = op?.requestBody?.schema as Json;
const example = op?.requestBody?.example as Json;
const cases = bodyCases(contract, schema, example);
const find = (field: string, rule: string, expect: string) =>
  cases.filter((c) => c.field === field && c.rule === rule && c.expect === expect);

describe('bodyCases', () => {
  it.each([
    ['name', 'required', 'invalid', undefined],
    ['name', 'minLength', 'invalid', 2],
    ['name', 'minLength', 'valid', 3],
    ['name', 'maxLength', 'invalid', 11],
    ['name', 'maxLength', 'valid', 10],
    ['price', 'minimum', 'invalid', 0.009],
    ['price', 'minimum', 'valid', 0.01],
    ['price', 'maximum', 'invalid', 99.991],
    ['weight', 'required', 'invalid', undefined], // required through if/then: the example is PHYSICAL
    ['weight', 'minimum', 'invalid', 0],
    ['weight', 'type', 'invalid', 1.5],
    ['kind', 'enum', 'invalid', 'NOT_A_VALID_OPTION'],
    ['kind', 'enum', 'valid', 'DIGITAL'],
    ['note', 'maxLength', 'invalid', 6], // absent optional field: probed on its own
    ['productIds', 'minItems', 'invalid', 0],
    ['productIds', 'maxItems', 'invalid', 4],
    ['productIds', 'maxItems', 'valid', 3],
    ['productIds.0', 'format', 'invalid', 'not-a-uuid'],
    ['conformanceUnknownField', 'additionalProperties', 'invalid', 'x'],
  ])('%s %s %s', (field, rule, outcome, want) => {
    const found = find(field, rule, outcome);
    expect(found.length, JSON.stringify(cases.map((c) => `${c.field} ${c.rule} ${c.expect}`))).toBeGreaterThan(0);
    const values = found.map((c) =>
      typeof c.value === 'string' && typeof want === 'number'
        ? c.value.length
        : Array.isArray(c.value)
          ? c.value.length
          : c.value,
    );
    if (want !== undefined) expect(values).toContain(want);
  });

  it("puts NUL and a lone surrogate in the body's first plain-text field (the contract's prose, not its schema)", () => {
    const name = String((example as { name: string }).name);
    expect(cases.filter((c) => c.rule === 'text')).toEqual([
      { field: 'name', location: 'body', rule: 'text', expect: 'invalid', value: `${name}\u0000` },
      { field: 'name', location: 'body', rule: 'text', expect: 'invalid', value: `${name}\ud800` },
    ]);
  });

  it('names an unknown field that no pattern of patternProperties takes, and that additionalProperties refuses', () => {
    const headers = {
      type: 'object',
      patternProperties: { '^[A-Za-z-]+$': { type: 'string' } },
      additionalProperties: false,
    };
    const body = { type: 'object', properties: { headers }, additionalProperties: false };
    const value = { headers: { 'X-Kept': 'b' } };
    const unknown = bodyCases(contract, body, value).filter((c) => c.rule === 'additionalProperties');
    expect(unknown.map((c) => c.field)).toEqual(['conformanceUnknownField', 'headers.conformance unknown field']);
    for (const c of unknown) expect(contract.validates(body, setPath(value, c.field, c.value)), c.field).toBe(false);
  });

  it('never produces a case the schema disagrees with', () => {
    for (const c of cases) {
      // text: the contract's Text and nesting rule, which its schemas do not state
      if (c.rule === 'required' || c.rule === 'additionalProperties' || c.rule === 'text') continue;
      const body = setPath(example, c.field, c.value);
      expect(contract.validates(op?.requestBody?.schema ?? {}, body), `${c.field} ${c.rule} ${c.expect}`).toBe(
        c.expect === 'valid',
      );
    }
  });
});

describe('minimalBody and kindOf', () => {
  it('keeps the required fields and those an if/then requires', () => {
    expect(minimalBody(contract, schema, example)).toEqual({ name: 'Lamp', kind: 'PHYSICAL', price: 10, weight: 2 });
  });
  it.each([
    ['productId', 'product'],
    ['triggerProductIds', 'product'],
    ['targetCategoryIds', 'category'],
    ['template_id', 'template'],
    ['productVariantId', 'variant'],
    ['nextId', undefined],
  ])('%s → %s', (name, kind) => {
    expect(kindOf(name, new Set(['product', 'category', 'template', 'variant']))).toBe(kind);
  });
});
