import type { RequestHandler } from 'express';
import { isObject, type Json } from '../../../lib/contract.ts';
import { isDateTime } from '../../../lib/date-time.ts';
import { UUID } from '../../../lib/uuid.ts';
import { type OperationId, operationOf, servedContract } from '../contract.ts';

// What a client may send in more than one form is kept in one (contract, info: Query strings): uuids are accepted
// in any letter case and stored in lower case, so an id read back compares equal to the one sent in upper case;
// a body's date-times are accepted with any offset and stored in UTC (section 2: timestamps are in UTC).
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

/** The formats whose values are kept in one form. */
type Form = 'uuid' | 'date-time';
const FORMS: ReadonlySet<unknown> = new Set<Form>(['uuid', 'date-time']);

/**
 * Where a request body holds uuids and date-times, by its schema in the contract: a string field of `format: uuid`
 * or `format: date-time`, and the objects and arrays on the way to one. Branches (`allOf`, `oneOf`, `anyOf`,
 * `if`/`then`/`else`) are merged: a field has a form when any branch gives it one. Free text that looks like a uuid
 * (a step's own `id`) is left as sent.
 */
interface FormPlan {
  form: Form | undefined;
  properties: Map<string, FormPlan>;
  /** `additionalProperties` (an object keyed by free names). */
  other: FormPlan | undefined;
  items: FormPlan | undefined;
}

const emptyPlan = (): FormPlan => ({ form: undefined, properties: new Map(), other: undefined, items: undefined });
const BRANCHES = ['allOf', 'oneOf', 'anyOf'] as const;
const CONDITIONAL = ['if', 'then', 'else'] as const;

/** Merges `schema` into `plan`; `seen` holds the `$ref`s on the way, so a recursive schema ends. */
function addSchema(plan: FormPlan, schema: Json | undefined, seen: ReadonlySet<string>): void {
  if (!isObject(schema)) return;
  if (typeof schema.$ref === 'string') {
    if (seen.has(schema.$ref)) return;
    addSchema(plan, servedContract.pointer(schema.$ref), new Set([...seen, schema.$ref]));
    return;
  }
  if (FORMS.has(schema.format)) plan.form = schema.format as Form;
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

/** Whether any field under `plan` has a form: a plan with none is dropped, so its part of a body is not walked. */
function pruned(plan: FormPlan): FormPlan | undefined {
  const properties = new Map(
    [...plan.properties].flatMap(([name, inner]) => {
      const kept = pruned(inner);
      return kept ? [[name, kept] as const] : [];
    }),
  );
  const other = plan.other && pruned(plan.other);
  const items = plan.items && pruned(plan.items);
  return plan.form || properties.size > 0 || other || items ? { form: plan.form, properties, other, items } : undefined;
}

/** The form plan of each operation's JSON request body, made at its first request. */
const plans = new Map<OperationId, FormPlan | undefined>();

function planOf(operationId: OperationId): FormPlan | undefined {
  if (!plans.has(operationId)) {
    const plan = emptyPlan();
    addSchema(plan, operationOf(operationId).jsonBodySchema, new Set());
    plans.set(operationId, pruned(plan));
  }
  return plans.get(operationId);
}

/** A date-time in UTC as written: `Z` after the seconds and their fraction. */
const IN_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/**
 * A string in its field's one form: a uuid in lower case; a date-time with another offset (or in lower case) as
 * the instant it names, in UTC to the millisecond. Anything else is left for the validator to refuse.
 */
function inForm(value: string, form: Form | undefined): string {
  if (form === 'uuid') return UUID.test(value) ? value.toLowerCase() : value;
  if (form === 'date-time' && !IN_UTC.test(value) && isDateTime(value)) return new Date(value).toISOString();
  return value;
}

function inForms(value: unknown, plan: FormPlan): unknown {
  if (typeof value === 'string') return inForm(value, plan.form);
  if (Array.isArray(value)) return plan.items ? value.map((item) => inForms(item, plan.items as FormPlan)) : value;
  if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    for (const [key, item] of Object.entries(object)) {
      const inner = plan.properties.get(key) ?? plan.other;
      if (inner) object[key] = inForms(item, inner);
    }
  }
  return value;
}

/**
 * A parsed JSON body's uuids in lower case and its date-times in UTC, found by the operation's schema (free text
 * left as sent).
 */
export const bodyInCanonicalForms: RequestHandler = (req, _res, next) => {
  // The route lookup found the operation; its id is one of the contract's (operation-lookup.ts).
  const operationId = (req as { openapi?: { schema?: { operationId?: OperationId } } }).openapi?.schema?.operationId;
  const plan = operationId === undefined ? undefined : planOf(operationId);
  if (plan && req.body !== undefined) inForms(req.body, plan);
  next();
};
