import { describe, expect, it } from 'vitest';
import { boundsPlan, cutOverlongArrays } from './array-bounds.ts';
import { ContractDocument, type Json } from './contract.ts';

const contract = new ContractDocument({
  components: {
    schemas: {
      Tags: { type: 'array', maxItems: 2, items: { type: 'string' } },
      Step: { type: 'object', properties: { tags: { $ref: '#/components/schemas/Tags' } } },
      Steps: { type: 'array', maxItems: 3, items: { $ref: '#/components/schemas/Step' } },
      Body: {
        type: 'object',
        properties: {
          steps: { $ref: '#/components/schemas/Steps' },
          // A field that may be null: its one other branch holds.
          later: { oneOf: [{ $ref: '#/components/schemas/Steps' }, { type: 'null' }] },
          // Two alternatives: which holds depends on the value, so neither bound is applied.
          either: {
            oneOf: [
              { type: 'array', maxItems: 1 },
              { type: 'array', maxItems: 9 },
            ],
          },
          // Both parts of an allOf hold: the smaller bound.
          both: { allOf: [{ type: 'array', maxItems: 4 }, { maxItems: 2 }] },
          free: { type: 'array' },
        },
      },
    },
  },
});
const plan = boundsPlan(contract, { $ref: '#/components/schemas/Body' }, 32);
const list = (length: number, item: Json = 'x'): Json[] => Array.from({ length }, () => item);

describe('cutOverlongArrays', () => {
  it('cuts an array to one past its maxItems, in items too, and says so', () => {
    const body = { steps: list(10, { tags: list(10) }), later: list(10), both: list(10) };
    expect(plan && cutOverlongArrays(body, plan)).toBe(true);
    expect(body).toEqual({ steps: list(4, { tags: list(3) }), later: list(4), both: list(3) });
  });

  it('leaves an array within one past its bound, one under alternatives, one without a bound and other values', () => {
    const body = { steps: list(4), later: null, either: list(10), free: list(100), other: list(100) };
    const copy = structuredClone(body);
    expect(plan && cutOverlongArrays(body, plan)).toBe(false);
    expect(body).toEqual(copy);
  });

  it('makes no plan for a body without a bounded array', () => {
    expect(boundsPlan(contract, { type: 'object', properties: { free: { type: 'array' } } }, 32)).toBeUndefined();
  });

  it('ends a recursive schema at the depth given', () => {
    const tree = new ContractDocument({
      components: {
        schemas: { Node: { type: 'array', maxItems: 1, items: { $ref: '#/components/schemas/Node' } } },
      },
    });
    const shallow = boundsPlan(tree, { $ref: '#/components/schemas/Node' }, 2);
    expect(shallow?.items?.items?.maxItems).toBe(1);
    expect(shallow?.items?.items?.items).toBeUndefined();
  });
});
