import { describe, expect, it } from 'vitest';
import { boundsPlan, cutPastBounds } from './body-bounds.ts';
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
          headers: { type: 'object', maxProperties: 2, additionalProperties: { type: 'string' } },
          closed: { type: 'object', additionalProperties: false, properties: { a: { type: 'string' } } },
        },
      },
    },
  },
});
const plan = boundsPlan(contract, { $ref: '#/components/schemas/Body' }, 32);
const list = (length: number, item: Json = 'x'): Json[] => Array.from({ length }, () => item);
const keyed = (names: string[]) => Object.fromEntries(names.map((name) => [name, 1]));

describe('cutPastBounds', () => {
  it('cuts an array to one past its maxItems, in items too, and says so', () => {
    const body = { steps: list(10, { tags: list(10) }), later: list(10), both: list(10) };
    expect(plan && cutPastBounds(body, plan)).toBe(true);
    expect(body).toEqual({ steps: list(4, { tags: list(3) }), later: list(4), both: list(3) });
  });

  it('cuts an object to one property past its maxProperties, the first ones kept', () => {
    const body = { headers: keyed(['h1', 'h2', 'h3', 'h4', 'h5']) };
    expect(plan && cutPastBounds(body, plan)).toBe(true);
    expect(body).toEqual({ headers: keyed(['h1', 'h2', 'h3']) });
  });

  it("keeps a closed object's declared properties and the first undeclared ones its error can name", () => {
    const body = { closed: keyed(['x1', 'a', 'x2', 'x3', 'x4']), x: 1, y: 2 };
    expect(plan && cutPastBounds(body, plan, 2)).toBe(true);
    // The body itself is open (no additionalProperties: false): its own undeclared fields stay.
    expect(body).toEqual({ closed: keyed(['x1', 'a', 'x2']), x: 1, y: 2 });
  });

  it('leaves what is within its bounds, under alternatives, without a bound, and a closed object without a count', () => {
    const body = {
      steps: list(4),
      later: null,
      either: list(10),
      free: list(100),
      other: list(100),
      headers: keyed(['h1', 'h2', 'h3']),
      closed: keyed(['x1', 'x2', 'x3']),
    };
    const copy = structuredClone(body);
    expect(plan && cutPastBounds(body, plan)).toBe(false);
    expect(body).toEqual(copy);
  });

  it('makes no plan for a body without a bound', () => {
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
