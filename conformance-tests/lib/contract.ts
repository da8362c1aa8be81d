// The contract as the suite needs it: the shared reader (lib/contract.ts) for operations, parameters and
// examples, plus each operation's request body and documented responses, and Ajv validators compiled from
// the response schemas. Nothing here names an operation: a new operation in the contract is picked up as it is.
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';
import {
  CONTRACT_PATH,
  ContractDocument,
  type Operation as ContractOperation,
  escapePointer,
  isObject,
  type Json,
  type JsonObject,
} from '../../lib/contract.ts';
import { CONTRACT_FORMATS } from '../../lib/formats.ts';

const addFormats = formats as unknown as (ajv: Ajv2020) => void;

export { METHODS, type Method, type Parameter } from '../../lib/contract.ts';
export { isObject, type Json, type JsonObject };
export type Schema = { [key: string]: Json };

export const DEFAULT_CONTRACT = CONTRACT_PATH;

export interface DocumentedResponse {
  status: string;
  pointer: string;
  schema?: Schema;
  contentType?: string;
  headers: Record<string, { schema: Schema; required: boolean }>;
  /** Error codes named by the response's examples (e.g. VALIDATION_ERROR). */
  exampleCodes: string[];
}

export interface Operation extends Omit<ContractOperation, 'raw' | 'pointer'> {
  requestBody?: { required: boolean; schema: Schema; example?: Json };
  responses: Map<string, DocumentedResponse>;
}

export class Contract extends ContractDocument {
  readonly operations: Operation[];
  readonly #ajv: Ajv2020;
  readonly #validators = new Map<string, ValidateFunction>();

  constructor(file = DEFAULT_CONTRACT) {
    super(ContractDocument.load(file).doc);
    this.#ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats(this.#ajv);
    for (const [name, format] of Object.entries(CONTRACT_FORMATS)) this.#ajv.addFormat(name, format);
    this.#ajv.addSchema(this.doc as object, 'contract');
    this.operations = this.listOperations().map(({ raw, pointer, ...operation }) => ({
      ...operation,
      requestBody: this.#requestBody(raw.requestBody),
      responses: this.#responses(raw.responses, `${pointer}/responses`),
    }));
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

  #requestBody(raw: Json | undefined): Operation['requestBody'] {
    const body = this.deref(raw);
    if (!isObject(body) || !isObject(body.content)) return undefined;
    const media = body.content['application/json'];
    if (!isObject(media)) return undefined;
    const example = this.firstExample({ content: { 'application/json': media } });
    return {
      required: body.required === true,
      schema: (media.schema ?? {}) as Schema,
      ...(example !== undefined ? { example } : {}),
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
      const exampleCodes = this.examples({ content: content ?? {} }).flatMap(({ value }) => {
        const error = isObject(value) ? value.error : undefined;
        const code = isObject(error) ? error.code : error;
        return typeof code === 'string' ? [code] : [];
      });
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
