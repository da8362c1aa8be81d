// A body's arrays longer than the contract lets them be are cut to one item past their `maxItems` before the body
// is judged (contract, info: Text and nesting). The request is refused for that array's length either way, and the
// cost of judging it then stays within the contract's bounds: a validator reports every invalid item, and ajv
// gathers the errors of items it checks through a `$ref` in time that grows with the square of their number
// (32,000 empty automation steps, a 96 KB body, held the server's thread for 21 s).
import { type ContractDocument, isObject, type Json, type JsonObject } from './contract.ts';

/** Where a body's bounded arrays are: the `maxItems` that holds at a place, and the places under it. */
export interface BoundsPlan {
  maxItems: number | undefined;
  properties: Map<string, BoundsPlan>;
  items: BoundsPlan | undefined;
}

const emptyPlan = (): BoundsPlan => ({ maxItems: undefined, properties: new Map(), items: undefined });

const isNullOnly = (contract: ContractDocument, branch: Json): boolean => {
  const resolved = contract.deref(branch);
  return isObject(resolved) && resolved.type === 'null';
};

/**
 * The schemas that must hold for a value `schema` applies to: `schema` itself, what its `$ref` names, its `allOf` parts, and the one
 * branch of a `oneOf`/`anyOf` that is not `null` alone (a field that may be null). The other branchings (several
 * alternatives, `if`/`then`/`else`, `not`) decide nothing here, so an array under them is never cut.
 */
function mustHold(contract: ContractDocument, schema: Json | undefined, seen: ReadonlySet<string>): JsonObject[] {
  if (!isObject(schema)) return [];
  const ref = typeof schema.$ref === 'string' && !seen.has(schema.$ref) ? schema.$ref : undefined;
  const referenced = ref ? mustHold(contract, contract.pointer(ref), new Set([...seen, ref])) : [];
  const parts = Array.isArray(schema.allOf) ? schema.allOf : [];
  const alternatives = [schema.oneOf, schema.anyOf].flatMap((branches) => {
    const others = Array.isArray(branches) ? branches.filter((branch) => !isNullOnly(contract, branch)) : [];
    return others.length === 1 ? others : [];
  });
  return [schema, ...referenced, ...[...parts, ...alternatives].flatMap((part) => mustHold(contract, part, seen))];
}

function addSchema(contract: ContractDocument, plan: BoundsPlan, schema: Json | undefined, depth: number): void {
  if (depth === 0) return;
  for (const held of mustHold(contract, schema, new Set())) {
    if (typeof held.maxItems === 'number') plan.maxItems = Math.min(plan.maxItems ?? held.maxItems, held.maxItems);
    if (isObject(held.properties)) {
      for (const [name, property] of Object.entries(held.properties)) {
        const inner = plan.properties.get(name) ?? emptyPlan();
        addSchema(contract, inner, property, depth - 1);
        plan.properties.set(name, inner);
      }
    }
    if (isObject(held.items)) {
      plan.items ??= emptyPlan();
      addSchema(contract, plan.items, held.items, depth - 1);
    }
  }
}

/** The plan without the places that hold no bounded array; undefined when none is left. */
function pruned(plan: BoundsPlan): BoundsPlan | undefined {
  const properties = new Map(
    [...plan.properties].flatMap(([name, inner]) => {
      const kept = pruned(inner);
      return kept ? [[name, kept] as const] : [];
    }),
  );
  const items = plan.items && pruned(plan.items);
  return plan.maxItems !== undefined || properties.size > 0 || items
    ? { maxItems: plan.maxItems, properties, items }
    : undefined;
}

/**
 * Where the bounded arrays of a body of `schema` are, to `depth` levels (a body nests no deeper than the contract's
 * `x-max-body-depth`, which also ends a recursive schema); undefined when it has none.
 */
export function boundsPlan(
  contract: ContractDocument,
  schema: Json | undefined,
  depth: number,
): BoundsPlan | undefined {
  const plan = emptyPlan();
  addSchema(contract, plan, schema, depth + 1);
  return pruned(plan);
}

/**
 * Cuts, in place, every array of `value` longer than one past the `maxItems` `plan` gives its place. Returns
 * whether it cut any: a body cut is refused for the cut array's length by the schema it is judged by.
 */
export function cutOverlongArrays(value: unknown, plan: BoundsPlan): boolean {
  let cut = false;
  if (Array.isArray(value)) {
    if (plan.maxItems !== undefined && value.length > plan.maxItems + 1) {
      value.length = plan.maxItems + 1;
      cut = true;
    }
    const { items } = plan;
    if (items) for (const item of value) cut = cutOverlongArrays(item, items) || cut;
  } else if (value !== null && typeof value === 'object') {
    for (const [name, inner] of plan.properties) {
      if (Object.hasOwn(value, name)) cut = cutOverlongArrays((value as Record<string, unknown>)[name], inner) || cut;
    }
  }
  return cut;
}

/**
 * `cutOverlongArrays` for the bodies of a contract's operations, `depth` levels deep: each operation's plan is
 * made at its first body. Returns whether it cut any.
 */
export function bodyArrayCutter(contract: ContractDocument, depth: number) {
  const plans = new Map<string, BoundsPlan | undefined>();
  return (operationId: string, schema: Json | undefined, body: unknown): boolean => {
    if (!plans.has(operationId)) plans.set(operationId, boundsPlan(contract, schema, depth));
    const plan = plans.get(operationId);
    return plan !== undefined && body !== undefined && cutOverlongArrays(body, plan);
  };
}
