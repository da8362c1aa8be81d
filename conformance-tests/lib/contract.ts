// The contract, read from openapi.yaml at run time: operations, their parameters, request bodies and
// documented responses, and Ajv validators compiled from the response schemas. Nothing here names an
// operation: a new operation in the contract is picked up as it is.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';

const addFormats = formats as unknown as (ajv: Ajv2020) => void;

import { parse } from 'yaml';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };
export type Schema = { [key: string]: Json };

export const DEFAULT_CONTRACT = path.resolve(import.meta.dirname, '../../openapi.yaml');
export const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
export type Method = (typeof METHODS)[number];

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: Schema;
  example?: Json;
}

export interface DocumentedResponse {
  status: string;
  pointer: string;
  schema?: Schema;
  contentType?: string;
  headers: Record<string, { schema: Schema; required: boolean }>;
  /** Error codes named by the response's examples (e.g. VALIDATION_ERROR). */
  exampleCodes: string[];
}

export interface Operation {
  operationId: string;
  method: Method;
  path: string;
  scheme: string;
  scopes: string[];
  parameters: Parameter[];
  requestBody?: { required: boolean; schema: Schema; example?: Json };
  responses: Map<string, DocumentedResponse>;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const escapePointer = (part: string) => part.replaceAll('~', '~0').replaceAll('/', '~1');

export class Contract {
  readonly doc: JsonObject;
  readonly operations: Operation[];
  readonly #ajv: Ajv2020;
  readonly #validators = new Map<string, ValidateFunction>();

  constructor(file = DEFAULT_CONTRACT) {
    this.doc = parse(readFileSync(file, 'utf8')) as JsonObject;
    this.#ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats(this.#ajv);
    this.#ajv.addSchema(this.doc as object, 'contract');
    this.operations = this.#readOperations();
  }

  /** Follows local `$ref`s until a value that is not a reference. */
  deref<T extends Json | undefined>(node: T): T {
    let current: Json | undefined = node;
    for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops++) {
      if (hops > 30) throw new Error(`$ref loop at ${current.$ref}`);
      current = this.pointer(current.$ref);
    }
    return current as T;
  }

  pointer(ref: string): Json | undefined {
    return ref
      .replace(/^#\//, '')
      .split('/')
      .map((part) => decodeURIComponent(part).replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce<Json | undefined>(
        (at, key) => (isObject(at) ? at[key] : Array.isArray(at) ? at[Number(key)] : undefined),
        this.doc,
      );
  }

  /** An Ajv validator for a schema at a JSON pointer of the contract (compiled once). */
  validator(pointer: string): ValidateFunction {
    let validate = this.#validators.get(pointer);
    if (!validate) {
      validate = this.#ajv.compile({ $ref: `contract#${pointer}` });
      this.#validators.set(pointer, validate);
    }
    return validate;
  }

  /** Validates a value against an arbitrary schema fragment of the contract (its `$ref`s resolve). */
  validates(schema: Schema, value: unknown): boolean {
    const key = `inline:${JSON.stringify(schema)}`;
    let validate = this.#validators.get(key);
    if (!validate) {
      validate = this.#ajv.compile(rebase(schema) as object);
      this.#validators.set(key, validate);
    }
    return validate(value) as boolean;
  }

  #readOperations(): Operation[] {
    const operations: Operation[] = [];
    const paths = this.doc.paths;
    if (!isObject(paths)) return operations;
    for (const [route, rawItem] of Object.entries(paths)) {
      const item = this.deref(rawItem);
      if (!isObject(item)) continue;
      for (const method of METHODS) {
        const op = item[method];
        if (!isObject(op) || typeof op.operationId !== 'string') continue;
        const security = (Array.isArray(op.security) ? op.security : this.doc.security) as JsonObject[] | undefined;
        const requirement = security?.[0] ?? {};
        const [scheme = 'none', scopes = []] = Object.entries(requirement)[0] ?? [];
        const base = `/paths/${escapePointer(route)}/${method}`;
        operations.push({
          operationId: op.operationId,
          method,
          path: route,
          scheme,
          scopes: (scopes as string[]) ?? [],
          parameters: this.#parameters([...asArray(item.parameters), ...asArray(op.parameters)]),
          requestBody: this.#requestBody(op.requestBody),
          responses: this.#responses(op.responses, `${base}/responses`),
        });
      }
    }
    return operations;
  }

  #parameters(raw: Json[]): Parameter[] {
    const byKey = new Map<string, Parameter>();
    for (const entry of raw) {
      const p = this.deref(entry);
      if (!isObject(p) || typeof p.name !== 'string') continue;
      const where = p.in as Parameter['in'];
      byKey.set(`${where}:${p.name.toLowerCase()}`, {
        name: p.name,
        in: where,
        required: p.required === true,
        schema: (isObject(p.schema) ? p.schema : {}) as Schema,
        example: p.example,
      });
    }
    return [...byKey.values()];
  }

  #requestBody(raw: Json | undefined): Operation['requestBody'] {
    const body = this.deref(raw);
    if (!isObject(body) || !isObject(body.content)) return undefined;
    const media = body.content['application/json'];
    if (!isObject(media)) return undefined;
    const example = isObject(media.examples)
      ? Object.values(media.examples)
          .map((e) => this.deref(e))
          .find((e) => isObject(e) && 'value' in e)
      : undefined;
    return {
      required: body.required === true,
      schema: (media.schema ?? {}) as Schema,
      example: isObject(example) ? example.value : media.example,
    };
  }

  #responses(raw: Json | undefined, pointer: string): Map<string, DocumentedResponse> {
    const out = new Map<string, DocumentedResponse>();
    if (!isObject(raw)) return out;
    for (const [status, entry] of Object.entries(raw)) {
      let at = `${pointer}/${escapePointer(status)}`;
      let response: Json | undefined = entry;
      while (isObject(response) && typeof response.$ref === 'string') {
        at = response.$ref.replace(/^#/, '');
        response = this.pointer(response.$ref);
      }
      if (!isObject(response)) continue;
      const headers: DocumentedResponse['headers'] = {};
      for (const [name, h] of Object.entries(isObject(response.headers) ? response.headers : {})) {
        const header = this.deref(h);
        if (isObject(header)) {
          headers[name.toLowerCase()] = { schema: (header.schema ?? {}) as Schema, required: header.required === true };
        }
      }
      const content = isObject(response.content) ? response.content : undefined;
      const [contentType, media] = content ? (Object.entries(content)[0] ?? []) : [];
      const exampleCodes: string[] = [];
      if (isObject(media) && isObject(media.examples)) {
        for (const e of Object.values(media.examples)) {
          const value = this.deref(e);
          const code = isObject(value) && isObject(value.value) ? value.value.error : undefined;
          if (isObject(code) && typeof code.code === 'string') exampleCodes.push(code.code);
          else if (typeof code === 'string') exampleCodes.push(code);
        }
      }
      out.set(status, {
        status,
        pointer: at,
        schema: isObject(media) && isObject(media.schema) ? (media.schema as Schema) : undefined,
        contentType: contentType ?? undefined,
        headers,
        exampleCodes,
      });
    }
    return out;
  }
}

function asArray(value: Json | undefined): Json[] {
  return Array.isArray(value) ? value : [];
}

/** Points the local `$ref`s of a schema fragment at the registered contract. */
function rebase(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(rebase);
  if (!isObject(schema)) return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([k, v]) => [
      k,
      k === '$ref' && typeof v === 'string' && v.startsWith('#') ? `contract${v}` : rebase(v),
    ]),
  );
}
