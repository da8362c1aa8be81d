import type { RequestHandler } from 'express';
import { isObject, type Json } from '../../../lib/contract.ts';
import { UUID } from '../../../lib/uuid.ts';
import { type OperationId, operationOf, servedContract } from '../contract.ts';

// Uuids are accepted in any letter case (contract, info: Query strings) and stored in lower case, so an id read
// back compares equal to the one a client sent in upper case.
const UUID_IN_URL = /(?<=[/=])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?=$|[/?&#])/gi;

/** `/api/v1/products/6F1C…?categoryId=A1B2…` → the same with both uuids in lower case (before routing). */
export const lowercaseUrlUuids: RequestHandler = (req, _res, next) => {
  if (/[A-F]/.test(req.originalUrl)) {
    const lower = (url: string) => url.replace(UUID_IN_URL, (id) => id.toLowerCase());
    req.url = lower(req.url);
    req.originalUrl = lower(req.originalUrl);
  }
  next();
};

/**
 * Where a request body holds uuids, by its schema in the contract: a string field of `format: uuid`, and the objects
 * and arrays on the way to one. Branches (`allOf`, `oneOf`, `anyOf`, `if`/`then`/`else`) are merged: a field is a
 * uuid when any branch says so. Free text that looks like a uuid (a step's own `id`) is left as sent.
 */
interface UuidPlan {
  uuid: boolean;
  properties: Map<string, UuidPlan>;
  /** `additionalProperties` (an object keyed by free names). */
  other: UuidPlan | undefined;
  items: UuidPlan | undefined;
}

const emptyPlan = (): UuidPlan => ({ uuid: false, properties: new Map(), other: undefined, items: undefined });
const BRANCHES = ['allOf', 'oneOf', 'anyOf'] as const;
const CONDITIONAL = ['if', 'then', 'else'] as const;

/** Merges `schema` into `plan`; `seen` holds the `$ref`s on the way, so a recursive schema ends. */
function addSchema(plan: UuidPlan, schema: Json | undefined, seen: ReadonlySet<string>): void {
  if (!isObject(schema)) return;
  if (typeof schema.$ref === 'string') {
    if (seen.has(schema.$ref)) return;
    addSchema(plan, servedContract.pointer(schema.$ref), new Set([...seen, schema.$ref]));
    return;
  }
  if (schema.format === 'uuid') plan.uuid = true;
  for (const keyword of [...BRANCHES, ...CONDITIONAL]) {
    const branches = schema[keyword];
    for (const branch of Array.isArray(branches) ? branches : [branches]) addSchema(plan, branch, seen);
  }
  if (isObject(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) {
      const inner = plan.properties.get(name) ?? emptyPlan();
      addSchema(inner, property, seen);
      plan.properties.set(name, inner);
    }
  }
  if (isObject(schema.additionalProperties)) {
    plan.other ??= emptyPlan();
    addSchema(plan.other, schema.additionalProperties, seen);
  }
  if (isObject(schema.items)) {
    plan.items ??= emptyPlan();
    addSchema(plan.items, schema.items, seen);
  }
}

/** Whether any field under `plan` is a uuid: a plan with none is dropped, so its part of a body is not walked. */
function pruned(plan: UuidPlan): UuidPlan | undefined {
  const properties = new Map(
    [...plan.properties].flatMap(([name, inner]) => {
      const kept = pruned(inner);
      return kept ? [[name, kept] as const] : [];
    }),
  );
  const other = plan.other && pruned(plan.other);
  const items = plan.items && pruned(plan.items);
  return plan.uuid || properties.size > 0 || other || items ? { uuid: plan.uuid, properties, other, items } : undefined;
}

/** The uuid plan of each operation's JSON request body, made at its first request. */
const plans = new Map<OperationId, UuidPlan | undefined>();

function planOf(operationId: OperationId): UuidPlan | undefined {
  if (!plans.has(operationId)) {
    const plan = emptyPlan();
    addSchema(plan, operationOf(operationId).jsonBodySchema, new Set());
    plans.set(operationId, pruned(plan));
  }
  return plans.get(operationId);
}

function lowercaseUuids(value: unknown, plan: UuidPlan): unknown {
  if (typeof value === 'string') return plan.uuid && UUID.test(value) ? value.toLowerCase() : value;
  if (Array.isArray(value))
    return plan.items ? value.map((item) => lowercaseUuids(item, plan.items as UuidPlan)) : value;
  if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    for (const [key, item] of Object.entries(object)) {
      const inner = plan.properties.get(key) ?? plan.other;
      if (inner) object[key] = lowercaseUuids(item, inner);
    }
  }
  return value;
}

/** The uuid fields of a parsed JSON body in lower case, found by the operation's schema (free text left as sent). */
export const lowercaseBodyUuids: RequestHandler = (req, _res, next) => {
  // The route lookup found the operation; its id is one of the contract's (operation-lookup.ts).
  const operationId = (req as { openapi?: { schema?: { operationId?: OperationId } } }).openapi?.schema?.operationId;
  const plan = operationId === undefined ? undefined : planOf(operationId);
  if (plan && req.body !== undefined) lowercaseUuids(req.body, plan);
  next();
};
