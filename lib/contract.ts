// The one reader of openapi.yaml shared by the server, the mock and the conformance suite: the YAML load, local
// `$ref`s, the operations (id, method, path, security, idempotency, parameters) and the named examples. It
// names no operation and restates nothing of the contract: whatever the file says is what callers get.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export const CONTRACT_PATH = path.resolve(import.meta.dirname, '../openapi.yaml');
export const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
export type Method = (typeof METHODS)[number];

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: JsonObject;
  example?: Json;
}

export interface Operation {
  operationId: string;
  method: Method;
  /** The contract's path template, e.g. `/api/v1/products/{productId}`. */
  path: string;
  /** JSON pointer of the operation object, e.g. `/paths/~1api~1v1~1products/post`. */
  pointer: string;
  /** The first security requirement's scheme, or undefined when the operation is public. */
  scheme: string | undefined;
  /** Scopes of that requirement. */
  scopes: string[];
  /** Whether the operation takes an `Idempotency-Key` header. */
  idempotent: boolean;
  /** Path-level and operation-level parameters, resolved (the operation's win on the same name). */
  parameters: Parameter[];
  /** The operation object itself, for what this reader does not interpret (request body, responses). */
  raw: JsonObject;
}

export interface NamedExample {
  name: string;
  value: Json;
}

/** The methods a path item has operations for, in the order the contract writes them. */
export function operationMethods(item: object): Method[] {
  return Object.keys(item).filter((key): key is Method => (METHODS as readonly string[]).includes(key));
}

/**
 * The `Allow` of a path: its operations' methods in the order the contract writes them, and HEAD where it has GET
 * (the server and the mock answer a HEAD as the GET, without its body).
 */
export function allowHeader(methods: readonly string[]): string {
  const upper = methods.map((method) => method.toUpperCase());
  return (upper.includes('GET') ? [...upper, 'HEAD'] : upper).join(', ');
}

/** A table of texts by name (`x-reasons`, `x-case-messages`). */
export const isTexts = (table: unknown): table is Readonly<Record<string, string>> =>
  isObject(table) && Object.values(table).every((text) => typeof text === 'string');

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const escapePointer = (part: string): string => part.replaceAll('~', '~0').replaceAll('/', '~1');

const asArray = (value: Json | undefined): Json[] => (Array.isArray(value) ? value : []);

/** openapi.yaml as `npm run generate` parsed it, with the SHA-256 of the text it came from. */
export const PARSED_CONTRACT_PATH = path.join(path.dirname(CONTRACT_PATH), 'generated/openapi.json');

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * The generated parse of openapi.yaml when it is of exactly this text: parsing the YAML takes most of a second
 * of a start-up, JSON a few milliseconds. An edited contract not yet regenerated is parsed from the YAML.
 */
export function parsedCopy(text: string, copyPath = PARSED_CONTRACT_PATH): JsonObject | undefined {
  try {
    const copy = JSON.parse(readFileSync(copyPath, 'utf8')) as { sourceSha256?: string; contract?: JsonObject };
    return copy.sourceSha256 === sha256(text) ? copy.contract : undefined;
  } catch {
    return undefined;
  }
}

/** A parsed contract document and what can be read from it without interpreting schemas. */
export class ContractDocument {
  readonly doc: JsonObject;

  constructor(doc: JsonObject) {
    this.doc = doc;
  }

  static load(file = CONTRACT_PATH): ContractDocument {
    const text = readFileSync(file, 'utf8');
    const copy = path.resolve(file) === CONTRACT_PATH ? parsedCopy(text) : undefined;
    return new ContractDocument(copy ?? (parse(text) as JsonObject));
  }

  /** The value at a local reference or JSON pointer (`#/components/...` or `/components/...`). */
  pointer(ref: string): Json | undefined {
    return ref
      .replace(/^#?\//, '')
      .split('/')
      .map((part) => decodeURIComponent(part).replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce<Json | undefined>(
        (at, key) => (isObject(at) ? at[key] : Array.isArray(at) ? at[Number(key)] : undefined),
        this.doc,
      );
  }

  /** Follows local `$ref`s until a value that is not a reference. */
  deref<T extends Json | undefined>(node: T): T {
    let current: Json | undefined = node;
    for (let hops = 0; isObject(current) && typeof current.$ref === 'string'; hops++) {
      if (hops > 30 || !current.$ref.startsWith('#/')) throw new Error(`Cannot follow $ref ${current.$ref}`);
      current = this.pointer(current.$ref);
    }
    return current as T;
  }

  /** Every HTTP operation of `paths`, in the file's order. */
  listOperations(): Operation[] {
    const operations: Operation[] = [];
    const paths = isObject(this.doc.paths) ? this.doc.paths : {};
    for (const [route, rawItem] of Object.entries(paths)) {
      const item = this.deref(rawItem);
      if (!isObject(item)) continue;
      for (const method of METHODS) {
        const raw = item[method];
        if (!isObject(raw) || typeof raw.operationId !== 'string') continue;
        const security = Array.isArray(raw.security) ? raw.security : asArray(this.doc.security);
        const requirement = isObject(security[0]) ? security[0] : {};
        const [scheme, scopes] = Object.entries(requirement)[0] ?? [];
        const parameters = this.#parameters([...asArray(item.parameters), ...asArray(raw.parameters)]);
        operations.push({
          operationId: raw.operationId,
          method,
          path: route,
          pointer: `/paths/${escapePointer(route)}/${method}`,
          scheme,
          scopes: asArray(scopes).filter((scope): scope is string => typeof scope === 'string'),
          idempotent: parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key'),
          parameters,
          raw,
        });
      }
    }
    return operations;
  }

  #parameters(raw: Json[]): Parameter[] {
    const byKey = new Map<string, Parameter>();
    for (const entry of raw) {
      const p = this.deref(entry);
      // cookie parameters are not part of this API
      if (!isObject(p) || typeof p.name !== 'string' || !['path', 'query', 'header'].includes(String(p.in))) continue;
      const where = p.in as Parameter['in'];
      byKey.set(`${where}:${p.name.toLowerCase()}`, {
        name: p.name,
        in: where,
        required: p.required === true,
        schema: isObject(p.schema) ? p.schema : {},
        ...(p.example !== undefined ? { example: p.example } : {}),
      });
    }
    return [...byKey.values()];
  }

  /** The named examples (then the single `example`) of a response or request body, first media type first. */
  examples(responseOrBody: Json | undefined): NamedExample[] {
    const resolved = this.deref(responseOrBody);
    if (!isObject(resolved) || !isObject(resolved.content)) return [];
    const found: NamedExample[] = [];
    for (const media of Object.values(resolved.content)) {
      if (!isObject(media)) continue;
      for (const [name, example] of Object.entries(isObject(media.examples) ? media.examples : {})) {
        const value = this.deref(example);
        if (isObject(value) && 'value' in value) found.push({ name, value: value.value as Json });
      }
      if ('example' in media) found.push({ name: 'example', value: media.example as Json });
    }
    return found;
  }

  /** The schema of an operation's JSON request body, or undefined for one without. */
  jsonBodySchema(operation: Pick<Operation, 'raw'>): Json | undefined {
    const body = this.deref(operation.raw.requestBody);
    const content = isObject(body) && isObject(body.content) ? body.content['application/json'] : undefined;
    return isObject(content) ? content.schema : undefined;
  }

  /** The first documented example body of a response or request body. */
  firstExample(responseOrBody: Json | undefined): Json | undefined {
    return this.examples(responseOrBody)[0]?.value;
  }

  /** A security scheme of `components/securitySchemes`. */
  securityScheme(name: string): JsonObject | undefined {
    const schemes = isObject(this.doc.components) ? this.doc.components.securitySchemes : undefined;
    const scheme = isObject(schemes) ? this.deref(schemes[name]) : undefined;
    return isObject(scheme) ? scheme : undefined;
  }
}

/**
 * The form of a security scheme's credential, in `bearerFormat`'s notation: a bearer scheme's `bearerFormat`, an
 * API key's `x-key-format` (OpenAPI has no field for it). Undefined when the scheme states none.
 */
export function credentialFormat(scheme: JsonObject | undefined): string | undefined {
  const format = scheme?.type === 'apiKey' ? scheme['x-key-format'] : scheme?.bearerFormat;
  return typeof format === 'string' ? format : undefined;
}

/**
 * The credential a scheme's `bearerFormat` describes, as a pattern: literal text plus placeholders such as
 * `<43 base64url characters>` (any other placeholder accepts any non-empty text).
 */
export function bearerFormatPattern(format: string): RegExp {
  const source = format
    .split(/(<[^>]*>)/)
    .map((part) => {
      const placeholder = /^<(\d+)?\s*(base64url|hex)?[^>]*>$/.exec(part);
      if (!placeholder) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const [, count, alphabet] = placeholder;
      const chars = alphabet === 'base64url' ? '[A-Za-z0-9_-]' : alphabet === 'hex' ? '[0-9a-fA-F]' : '\\S';
      return count ? `${chars}{${count}}` : `${chars}+`;
    })
    .join('');
  return new RegExp(`^${source}$`);
}

/**
 * What an `X-Request-Id` may be, from the contract's `RequestId` header (its pattern and length bounds): a client's
 * own id is echoed only when it passes. Undefined when the contract states no such header or no pattern.
 */
export function requestIdRule(contract: ContractDocument): ((id: string) => boolean) | undefined {
  const schema = contract.pointer('#/components/headers/RequestId/schema');
  const { minLength = 1, maxLength = Number.POSITIVE_INFINITY, pattern } = isObject(schema) ? schema : {};
  if (typeof pattern !== 'string' || typeof minLength !== 'number' || typeof maxLength !== 'number') return undefined;
  const matches = new RegExp(pattern, 'u');
  return (id) => id.length >= minLength && id.length <= maxLength && matches.test(id);
}

/** A positive whole number `info` states under `name` (undefined when it states none), or what stops start-up. */
function infoCount(contract: ContractDocument, name: string, unit: string): number | undefined {
  const count = isObject(contract.doc.info) ? contract.doc.info[name] : undefined;
  if (count === undefined) return undefined;
  if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 1) {
    throw new Error(`the contract's info ${name} is not a whole number of ${unit}`);
  }
  return count;
}

/**
 * The largest request body the contract accepts, in bytes (`info` › `x-max-body-bytes`): a longer one is answered 413
 * `PAYLOAD_TOO_LARGE`, by the server and by the mock alike. Undefined when the contract states none.
 */
export const maxBodyBytes = (contract: ContractDocument): number | undefined =>
  infoCount(contract, 'x-max-body-bytes', 'bytes');

/**
 * The most details an error names (`info` › `x-max-error-details`): the first found, by the server and the mock
 * alike. Undefined when the contract states no bound.
 */
export const maxErrorDetails = (contract: ContractDocument): number | undefined =>
  infoCount(contract, 'x-max-error-details', 'details');

/** Reads openapi.yaml (or another contract file). */
export function readContract(file = CONTRACT_PATH): ContractDocument {
  return ContractDocument.load(file);
}

let shipped: ContractDocument | undefined;

/** openapi.yaml, read once in a process for all that reads it there (the server, the mock, the texts of lib/). */
export function shippedContract(): ContractDocument {
  shipped ??= readContract();
  return shipped;
}

/** The language every text of the contract is worded in (`info` › `x-language`, a BCP 47 tag Intl knows). */
export function contractLanguage(contract: ContractDocument): string {
  const language = isObject(contract.doc.info) ? contract.doc.info['x-language'] : undefined;
  if (typeof language !== 'string' || Intl.getCanonicalLocales(language)[0] !== language) {
    throw new Error("the contract's info x-language is not a language tag");
  }
  return language;
}

/** The deepest a JSON body may nest objects and arrays (`info` › `x-max-body-depth`); anything else stops start-up. */
export function maxBodyDepth(contract: ContractDocument): number {
  const depth = infoCount(contract, 'x-max-body-depth', 'levels');
  if (depth === undefined) throw new Error("the contract's info x-max-body-depth is not a whole number of levels");
  return depth;
}

/** A credential of the form a `bearerFormat` describes (each placeholder filled with `A`s), for tests and mocks. */
export function bearerFormatExample(format: string): string {
  return format.replace(/<(\d+)?[^>]*>/g, (_placeholder, count?: string) => 'A'.repeat(Number(count ?? 8)));
}
