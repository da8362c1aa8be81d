// Values derived from schemas: invalid inputs one constraint at a time (with the value just inside the bound),
// the minimal valid body of an example, and unique variants of example values. A case is only produced when
// its outcome is certain: every value is checked against the field's own schema with Ajv before it is used.
import { randomBytes, randomUUID } from 'node:crypto';
import { type Contract, isObject, type Json, type JsonObject, type Schema } from './contract.ts';

/**
 * Integers written otherwise than in decimal digits, which JavaScript's `Number` (and so a validator's type
 * coercion) would still read: a query integer is decimal digits (info: Query strings), so each is a 400.
 */
const NOT_DECIMAL = ['0x10', '1e1', 'Infinity'];

export type Location = 'body' | 'query' | 'path' | 'header';

export interface InputCase {
  /** Dotted path of the field in its location ('' is the whole body). */
  field: string;
  location: Location;
  /** Which constraint: required, minLength, maxLength, minimum, maximum, pattern, format, enum, type, ... */
  rule: string;
  /** invalid: must answer 400 VALIDATION_ERROR naming the field; valid: must not answer 400. */
  expect: 'invalid' | 'valid';
  /** The new value; `undefined` removes the field. */
  value: Json | undefined;
  /** Checks against the body as a whole start from the minimal body, so other rules do not interfere. */
  fromMinimal?: boolean;
  /** A parent path the server may name instead (unknown property). */
  parentOk?: boolean;
}

const INVALID_FORMAT: Record<string, string> = {
  uuid: 'not-a-uuid',
  email: 'not-an-email',
  uri: 'not a uri',
  'date-time': 'not-a-date-time',
  date: 'not-a-date',
};

/** A schema with `$ref`s followed, `allOf` merged and the nullable `oneOf: [X, null]` folded into X. */
export function normalize(
  contract: Contract,
  raw: Json | undefined,
): { schema: Schema; nullable: boolean; opaque: boolean } {
  let schema = contract.deref(raw) as Schema | undefined;
  if (!isObject(schema)) return { schema: {}, nullable: false, opaque: true };
  let nullable = false;
  if (Array.isArray(schema.allOf)) {
    const merged: JsonObject = { ...schema, allOf: null };
    const required: Json[] = Array.isArray(schema.required) ? [...schema.required] : [];
    let properties: JsonObject = isObject(schema.properties) ? { ...schema.properties } : {};
    for (const part of schema.allOf) {
      const n = normalize(contract, part);
      if (n.opaque) return { schema, nullable, opaque: true };
      Object.assign(merged, n.schema);
      if (Array.isArray(n.schema.required)) required.push(...n.schema.required);
      if (isObject(n.schema.properties)) properties = { ...properties, ...n.schema.properties };
    }
    delete merged.allOf;
    schema = { ...merged, required, properties };
  }
  for (const key of ['oneOf', 'anyOf'] as const) {
    const branches = schema[key];
    if (!Array.isArray(branches)) continue;
    const others = branches.filter((b) => !(isObject(b) && b.type === 'null'));
    if (others.length === 1 && branches.length === 2) {
      const inner = normalize(contract, others[0]);
      return { schema: inner.schema, nullable: true, opaque: inner.opaque };
    }
    return { schema, nullable, opaque: true };
  }
  if (Array.isArray(schema.type)) {
    const types = schema.type.filter((t) => t !== 'null');
    nullable = types.length < schema.type.length;
    if (types.length === 1) schema = { ...schema, type: types[0] as string };
  }
  return { schema, nullable, opaque: false };
}

export function randomText(length: number): string {
  let out = '';
  while (out.length < length) out += randomBytes(48).toString('base64url').replace(/[-_]/g, '').toLowerCase();
  return out.slice(0, length);
}

function decimals(n: number): number {
  const text = String(n);
  return text.includes('.') ? (text.split('.')[1]?.length ?? 0) : 0;
}

const round = (n: number) => Number(n.toFixed(10));

/** Every single-constraint case for one field: outside the bound (invalid) and just inside (valid). */
function scalarCases(
  contract: Contract,
  raw: Json | undefined,
  present: Json | undefined,
  field: string,
  location: Location,
  queryText: boolean,
): InputCase[] {
  const { schema, opaque } = normalize(contract, raw);
  if (opaque) return [];
  const out: InputCase[] = [];
  const fieldSchema = contract.deref(raw) as Schema;
  const accepts = (value: Json) => contract.validates(fieldSchema, value);
  const encode = (value: Json): Json =>
    queryText && value !== null && typeof value !== 'object' ? String(value) : value;
  const add = (rule: string, expect: InputCase['expect'], value: Json) => {
    if (accepts(value) !== (expect === 'valid')) return; // not certain: the schema itself disagrees
    out.push({ field, location, rule, expect, value: encode(value), fromMinimal: true });
  };
  const type = schema.type;
  if (Array.isArray(schema.enum)) {
    add('enum', 'invalid', typeof schema.enum[0] === 'number' ? -987654 : 'NOT_A_VALID_OPTION');
    // two values inside are enough to show the enum is not narrowed (the example's own value is the base request)
    const inside = schema.enum.filter((option) => option !== present);
    for (const option of [inside[0], inside.at(-1)].filter((o, i, all) => o !== undefined && all.indexOf(o) === i))
      add('enum', 'valid', option as Json);
    return out;
  }
  if (schema.const !== undefined) return out;
  // wrong JSON type (query strings can only carry the types they can be parsed into)
  const wrong: Json[] = queryText ? ['not-a-number-or-boolean'] : [12345, 'not-of-this-type', true, { conformance: 1 }];
  if (!queryText || type === 'integer' || type === 'number' || type === 'boolean') {
    const candidate = wrong.find((w) => !accepts(w) && !(type === 'string' && typeof w === 'string'));
    if (candidate !== undefined) add('type', 'invalid', candidate);
  }
  if (type === 'integer') add('type', 'invalid', 1.5);
  if (queryText && type === 'integer') for (const text of NOT_DECIMAL) add('type', 'invalid', text);
  if (type === 'string') {
    const min = typeof schema.minLength === 'number' ? schema.minLength : undefined;
    const max = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
    const format = typeof schema.format === 'string' ? schema.format : undefined;
    const patterned = typeof schema.pattern === 'string' || format !== undefined;
    if (min !== undefined && min > 0) {
      add('minLength', 'invalid', randomText(min - 1));
      if (!patterned) add('minLength', 'valid', randomText(min));
    }
    if (max !== undefined && max < 100_000) {
      add(
        'maxLength',
        'invalid',
        patterned && typeof present === 'string' ? present.padEnd(max + 1, '0') : randomText(max + 1),
      );
      if (!patterned) add('maxLength', 'valid', randomText(max));
    }
    if (typeof schema.pattern === 'string') add('pattern', 'invalid', '#'.repeat(Math.max(1, min ?? 1)));
    if (format && INVALID_FORMAT[format]) add('format', 'invalid', INVALID_FORMAT[format]);
  }
  if (type === 'number' || type === 'integer') {
    const step = type === 'integer' ? 1 : typeof schema.multipleOf === 'number' ? schema.multipleOf : undefined;
    const stepFor = (bound: number) => step ?? 10 ** -(decimals(bound) + 1);
    if (typeof schema.minimum === 'number') {
      add('minimum', 'invalid', round(schema.minimum - stepFor(schema.minimum)));
      add('minimum', 'valid', schema.minimum);
    }
    if (typeof schema.maximum === 'number') {
      add('maximum', 'invalid', round(schema.maximum + stepFor(schema.maximum)));
      add('maximum', 'valid', schema.maximum);
    }
    if (typeof schema.exclusiveMinimum === 'number') {
      add('exclusiveMinimum', 'invalid', schema.exclusiveMinimum);
      add('exclusiveMinimum', 'valid', round(schema.exclusiveMinimum + stepFor(schema.exclusiveMinimum)));
    }
    if (typeof schema.exclusiveMaximum === 'number') {
      add('exclusiveMaximum', 'invalid', schema.exclusiveMaximum);
      add('exclusiveMaximum', 'valid', round(schema.exclusiveMaximum - stepFor(schema.exclusiveMaximum)));
    }
  }
  return out;
}

type Walk = (raw: Json | undefined, value: Json | undefined, field: string) => void;

/** Names for a field no schema declares: the first that none of an object's `patternProperties` takes is used. */
const UNKNOWN_FIELD_NAMES = ['conformanceUnknownField', 'conformance unknown field', '{conformance}'];

/** A property name `schema` neither names nor matches by pattern: one `additionalProperties: false` refuses. */
function nameNoPatternTakes(schema: Schema): string | undefined {
  const patterns = Object.keys(isObject(schema.patternProperties) ? schema.patternProperties : {}).map(
    (pattern) => new RegExp(pattern, 'u'),
  );
  const declared = isObject(schema.properties) ? schema.properties : {};
  return UNKNOWN_FIELD_NAMES.find(
    (name) => !Object.hasOwn(declared, name) && !patterns.some((pattern) => pattern.test(name)),
  );
}

/** Cases of an object: required fields (with `if/then`), unknown fields, min properties, then each property. */
function objectCases(
  contract: Contract,
  schema: Schema,
  value: JsonObject,
  field: string,
  out: InputCase[],
  walk: Walk,
) {
  const props = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  if (isObject(schema.if) && isObject(schema.then) && contract.validates(schema.if as Schema, value)) {
    for (const r of Array.isArray(schema.then.required) ? schema.then.required : []) required.add(r as string);
  }
  const at = (name: string) => (field ? `${field}.${name}` : name);
  for (const name of required) {
    if (value[name] !== undefined)
      out.push({ field: at(name), location: 'body', rule: 'required', expect: 'invalid', value: undefined });
  }
  const unknownName = nameNoPatternTakes(schema);
  if (schema.additionalProperties === false && unknownName !== undefined) {
    out.push({
      field: at(unknownName),
      location: 'body',
      rule: 'additionalProperties',
      expect: 'invalid',
      value: 'x',
      parentOk: true,
    });
  }
  if (typeof schema.minProperties === 'number' && schema.minProperties > 0) {
    out.push({ field, location: 'body', rule: 'minProperties', expect: 'invalid', value: {}, parentOk: true });
  }
  for (const [name, sub] of Object.entries(props)) {
    const child = value[name];
    if (child !== undefined) {
      walk(sub, child, at(name));
      continue;
    }
    // absent optional scalar: its bounds can still be probed on their own
    const n = normalize(contract, sub);
    if (!n.opaque && n.schema.type !== 'object' && n.schema.type !== 'array' && !isObject(n.schema.properties)) {
      out.push(...scalarCases(contract, sub, undefined, at(name), 'body', false));
    }
  }
}

/** Cases of an array: not an array, too few or too many items, then the first item's own cases. */
function arrayCases(contract: Contract, schema: Schema, value: Json[], field: string, out: InputCase[], walk: Walk) {
  out.push({ field, location: 'body', rule: 'type', expect: 'invalid', value: 'not-an-array' });
  const items = normalize(contract, schema.items);
  const sample = value[0];
  const makeItem = (): Json | undefined =>
    items.schema.format === 'uuid' ? randomUUID() : schema.uniqueItems === true ? undefined : sample;
  if (typeof schema.minItems === 'number' && schema.minItems > 0) {
    out.push({
      field,
      location: 'body',
      rule: 'minItems',
      expect: 'invalid',
      value: value.slice(0, schema.minItems - 1),
    });
  }
  if (
    typeof schema.maxItems === 'number' &&
    schema.maxItems <= 1000 &&
    sample !== undefined &&
    makeItem() !== undefined
  ) {
    const many = (n: number) =>
      Array.from({ length: n }, (_, i) => (i < value.length ? (value[i] as Json) : (makeItem() as Json)));
    out.push({ field, location: 'body', rule: 'maxItems', expect: 'invalid', value: many(schema.maxItems + 1) });
    out.push({ field, location: 'body', rule: 'maxItems', expect: 'valid', value: many(schema.maxItems) });
  }
  if (sample !== undefined) walk(schema.items, sample, `${field}.0`);
}

/** Cases for a JSON body: walks the schema along the base body (required, bounds, arrays, unknown fields). */
export function bodyCases(contract: Contract, rootSchema: Json, base: Json): InputCase[] {
  const out: InputCase[] = [];
  const typeCases = (raw: Json | undefined, value: Json | undefined, field: string) =>
    scalarCases(contract, raw, value, field, 'body', false).filter((c) => c.rule === 'type');
  const walk: Walk = (raw, value, field) => {
    const { schema, opaque } = normalize(contract, raw);
    if (opaque) return;
    if (schema.type === 'object' || isObject(schema.properties)) {
      if (isObject(value)) objectCases(contract, schema, value, field, out, walk);
      else if (field !== '') out.push(...typeCases(raw, value, field));
    } else if (schema.type === 'array') {
      if (Array.isArray(value)) arrayCases(contract, schema, value, field, out, walk);
      else out.push(...typeCases(raw, value, field));
    } else {
      out.push(...scalarCases(contract, raw, value, field, 'body', false));
    }
  };
  walk(rootSchema, base, '');
  return [...out, ...textCases(contract, rootSchema, base)];
}

/**
 * The contract's "Text and nesting" rule, which no schema states: a string holding NUL (U+0000) or a lone UTF-16
 * surrogate is refused, naming the field. One plain-text field of the body (no enum, format or pattern) carries
 * each.
 */
function textCases(contract: Contract, rootSchema: Json, base: Json): InputCase[] {
  if (!isObject(base)) return [];
  const { schema } = normalize(contract, rootSchema);
  const properties = isObject(schema.properties) ? schema.properties : {};
  for (const [field, value] of Object.entries(base)) {
    const text = normalize(contract, properties[field]).schema;
    const plain = text.type === 'string' && !text.enum && !text.format && !text.pattern && text.const === undefined;
    if (typeof value !== 'string' || !plain) continue;
    return [`${value}\u0000`, `${value}\ud800`].map((unstorable) => ({
      field,
      location: 'body' as const,
      rule: 'text',
      expect: 'invalid' as const,
      value: unstorable,
    }));
  }
  return [];
}

/** Cases for one query, path or header parameter. */
export function parameterCases(
  contract: Contract,
  schema: Schema,
  name: string,
  location: Location,
  required: boolean,
): InputCase[] {
  const cases = scalarCases(contract, schema, undefined, name, location, true);
  if (location === 'path') return cases.filter((c) => c.expect === 'invalid');
  return required
    ? [...cases, { field: name, location, rule: 'required', expect: 'invalid', value: undefined }]
    : cases;
}

export function clone<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/** Sets (or with `undefined` removes) a dotted path inside a JSON value; '' replaces the whole value. */
export function setPath(root: Json, field: string, value: Json | undefined): Json {
  if (field === '') return value === undefined ? {} : clone(value);
  const copy = clone(root);
  const parts = field.split('.');
  let at: Json = copy;
  for (const part of parts.slice(0, -1)) {
    const next: Json | undefined = Array.isArray(at) ? at[Number(part)] : isObject(at) ? at[part] : undefined;
    if (next === undefined || next === null || typeof next !== 'object') {
      if (!isObject(at)) return copy;
      at[part] = {};
      at = at[part] as Json;
    } else at = next;
  }
  const last = parts.at(-1) as string;
  if (Array.isArray(at)) {
    if (value === undefined) at.splice(Number(last), 1);
    else at[Number(last)] = value;
  } else if (isObject(at)) {
    if (value === undefined) delete at[last];
    else at[last] = value;
  }
  return copy;
}

/** The example reduced to what its schema requires (kept whole under oneOf/anyOf, where that is unknown). */
export function minimalBody(contract: Contract, raw: Json, value: Json): Json {
  const { schema, opaque } = normalize(contract, raw);
  if (opaque || !isObject(value)) {
    if (Array.isArray(value) && !opaque && schema.type === 'array') {
      return value.map((item) => minimalBody(contract, schema.items as Json, item));
    }
    return clone(value);
  }
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  if (isObject(schema.if) && isObject(schema.then) && contract.validates(schema.if as Schema, value)) {
    for (const r of Array.isArray(schema.then.required) ? schema.then.required : []) required.add(r as string);
  }
  const props = isObject(schema.properties) ? schema.properties : {};
  const out: JsonObject = {};
  for (const [name, child] of Object.entries(value)) {
    if (required.has(name)) out[name] = minimalBody(contract, props[name] ?? {}, child);
  }
  const min = typeof schema.minProperties === 'number' ? schema.minProperties : 0;
  for (const [name, child] of Object.entries(value)) {
    if (Object.keys(out).length >= min) break;
    if (!(name in out)) out[name] = clone(child);
  }
  return out;
}

let counter = 0;

/** Rewrites free-text values of a body so each use is unique (slugs, codes, e-mails), keeping it valid. */
export function uniquify(contract: Contract, raw: Json, value: Json, key = ''): Json {
  const { schema, opaque } = normalize(contract, raw);
  if (Array.isArray(value))
    return opaque ? value : value.map((item) => uniquify(contract, schema.items ?? {}, item, key));
  if (isObject(value)) {
    if (opaque || !isObject(schema.properties)) return value;
    const props = schema.properties;
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, k in props ? uniquify(contract, props[k] as Json, v, k) : v]),
    );
  }
  if (typeof value !== 'string' || opaque || schema.type !== 'string' || schema.enum || schema.const !== undefined)
    return value;
  if (!/name|title|code|slug|email|document|sku|barcode/i.test(key)) return value;
  const n = String(++counter).padStart(3, '0') + randomText(3);
  const candidates = [
    value.includes('@') ? value.replace('@', `+${randomText(6)}@`) : undefined,
    /^\d+$/.test(value)
      ? value.slice(0, Math.max(0, value.length - 8)) +
        String(Date.now() + counter)
          .slice(-8)
          .padStart(Math.min(8, value.length), '0')
      : undefined,
    /^[A-Z0-9_-]+$/.test(value) ? `${value.slice(0, 8)}${n}`.toUpperCase() : undefined,
    `${value} ${n}`,
    `${value}-${n}`,
  ];
  for (const candidate of candidates) {
    if (candidate !== undefined && contract.validates(contract.deref(raw) as Schema, candidate)) return candidate;
  }
  return value;
}
