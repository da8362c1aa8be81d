// What a body holds past the contract's bounds is cut before the body is judged (contract, info: Text and nesting),
// so that what judging it costs stays within those bounds: a validator reports every invalid item and every field
// it does not know, and ajv gathers the errors of items it checks through a `$ref` in time that grows with the
// square of their number (32,000 empty automation steps, a 96 KB body, held the server's thread for 21 s). An array
// past its `maxItems` keeps one item past it, an object past its `maxProperties` one property past it: the request
// is refused for that length either way. An object that takes no other properties keeps the first of those it
// does not declare that an error can name (`x-max-error-details`): the answer, which names no more, is the same.
import { type ContractDocument, isObject, type Json, type JsonObject, maxErrorDetails } from './contract.ts';

/** Where a body's bounds are: those that hold at a place, and the places under it. */
export interface BoundsPlan {
  maxItems: number | undefined;
  maxProperties: number | undefined;
  /** Whether the place takes no properties but `declared` (`additionalProperties: false`). */
  closed: boolean;
  declared: Set<string>;
  properties: Map<string, BoundsPlan>;
  items: BoundsPlan | undefined;
}

const emptyPlan = (): BoundsPlan => ({
  maxItems: undefined,
  maxProperties: undefined,
  closed: false,
  declared: new Set(),
  properties: new Map(),
  items: undefined,
});

const isNullOnly = (contract: ContractDocument, branch: Json): boolean => {
  const resolved = contract.deref(branch);
  return isObject(resolved) && resolved.type === 'null';
};

/**
 * The schemas that must hold for a value `schema` applies to: `schema` itself, what its `$ref` names, its `allOf`
 * parts, and the one branch of a `oneOf`/`anyOf` that is not `null` alone (a field that may be null). The other
 * branchings (several alternatives, `if`/`then`/`else`, `not`) decide nothing here, so nothing under them is cut.
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

const smaller = (bound: number | undefined, given: Json | undefined): number | undefined =>
  typeof given === 'number' ? Math.min(bound ?? given, given) : bound;

function addSchema(contract: ContractDocument, plan: BoundsPlan, schema: Json | undefined, depth: number): void {
  if (depth === 0) return;
  for (const held of mustHold(contract, schema, new Set())) {
    plan.maxItems = smaller(plan.maxItems, held.maxItems);
    plan.maxProperties = smaller(plan.maxProperties, held.maxProperties);
    if (held.additionalProperties === false && held.patternProperties === undefined) plan.closed = true;
    if (isObject(held.properties)) {
      for (const [name, property] of Object.entries(held.properties)) {
        plan.declared.add(name);
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

/** The plan without the places that hold no bound; undefined when none is left. */
function pruned(plan: BoundsPlan): BoundsPlan | undefined {
  const properties = new Map(
    [...plan.properties].flatMap(([name, inner]) => {
      const kept = pruned(inner);
      return kept ? [[name, kept] as const] : [];
    }),
  );
  const items = plan.items && pruned(plan.items);
  const bounded = plan.maxItems !== undefined || plan.maxProperties !== undefined || plan.closed;
  return bounded || properties.size > 0 || items ? { ...plan, properties, items } : undefined;
}

/**
 * Where the bounds of a body of `schema` are, to `depth` levels (a body nests no deeper than the contract's
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

/** Cuts an object's properties past its bounds; returns whether it cut any. */
function cutProperties(object: Record<string, unknown>, plan: BoundsPlan, keepUndeclared: number | undefined): boolean {
  const names = Object.keys(object);
  let cut = false;
  if (plan.maxProperties !== undefined && names.length > plan.maxProperties + 1) {
    for (const name of names.splice(plan.maxProperties + 1)) delete object[name];
    cut = true;
  }
  if (plan.closed && keepUndeclared !== undefined) {
    let undeclared = 0;
    for (const name of names) {
      if (plan.declared.has(name) || ++undeclared <= keepUndeclared) continue;
      delete object[name];
      cut = true;
    }
  }
  return cut;
}

/**
 * Cuts, in place, what `value` holds past the bounds `plan` gives its places: arrays to one item past their
 * `maxItems`, objects to one property past their `maxProperties`, and a closed object's undeclared properties to
 * the first `keepUndeclared` (none given: all kept). Returns whether it cut any.
 */
export function cutPastBounds(value: unknown, plan: BoundsPlan, keepUndeclared?: number): boolean {
  let cut = false;
  if (Array.isArray(value)) {
    if (plan.maxItems !== undefined && value.length > plan.maxItems + 1) {
      value.length = plan.maxItems + 1;
      cut = true;
    }
    const { items } = plan;
    if (items) for (const item of value) cut = cutPastBounds(item, items, keepUndeclared) || cut;
  } else if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    cut = cutProperties(object, plan, keepUndeclared);
    for (const [name, inner] of plan.properties) {
      if (Object.hasOwn(object, name)) cut = cutPastBounds(object[name], inner, keepUndeclared) || cut;
    }
  }
  return cut;
}

/**
 * `cutPastBounds` for the bodies of a contract's operations, `depth` levels deep, keeping the undeclared properties
 * its errors can name (`x-max-error-details`): each operation's plan is made at its first body. Returns whether it
 * cut any.
 */
export function bodyCutter(contract: ContractDocument, depth: number) {
  const plans = new Map<string, BoundsPlan | undefined>();
  const keepUndeclared = maxErrorDetails(contract);
  return (operationId: string, schema: Json | undefined, body: unknown): boolean => {
    if (!plans.has(operationId)) plans.set(operationId, boundsPlan(contract, schema, depth));
    const plan = plans.get(operationId);
    return plan !== undefined && body !== undefined && cutPastBounds(body, plan, keepUndeclared);
  };
}
