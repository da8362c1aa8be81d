// What the server reads of openapi.yaml, through the shared contract reader (lib/contract.ts): its operations
// typed by the generated operationIds, with the security scheme they need. The contract is read once per process.

import type { components, operations } from '../../generated/openapi.ts';
import {
  bearerFormatPattern,
  CONTRACT_PATH,
  type ContractDocument,
  type Operation as ContractOperation,
  credentialFormat,
  isObject,
  type Json,
  type JsonObject,
  maxBodyBytes as maxBodyBytesOf,
  requestIdRule,
  shippedContract,
} from '../../lib/contract.ts';
import { queryIntegerNames } from '../../lib/query-integers.ts';

export { CONTRACT_PATH };

/**
 * The `webhooks:` deliveries (`orderCreatedWebhook`, ...: an event name + `Webhook`) are sent, not served. The
 * webhook CRUD operations end in `Webhook` too but are HTTP operations.
 */
type DeliveryOperationId = Exclude<
  Extract<keyof operations, `${string}Webhook`>,
  'createWebhook' | 'updateWebhook' | 'deleteWebhook'
>;
/** The HTTP operations. */
export type OperationId = Exclude<keyof operations, DeliveryOperationId>;

export type SecuritySchemeName = 'ApiKeyAuth' | 'AdminToken' | 'CheckoutApiKey';

/** What the server needs to know of one operation; everything here is read from openapi.yaml. */
export interface Operation {
  operationId: OperationId;
  method: ContractOperation['method'];
  /** The contract's path, e.g. `/api/v1/products/{productId}`. */
  path: string;
  scheme: SecuritySchemeName;
  /** Scopes the API key needs (ApiKeyAuth only). */
  scopes: string[];
  /** Whether the operation accepts an `Idempotency-Key` header. */
  idempotent: boolean;
  /** How many records of its kind a store may hold (`x-per-store-limit`), for a create that has a cap. */
  perStoreLimit: number | undefined;
  /** Its query parameters of type integer, whose text must be decimal digits (lib/query-integers.ts). */
  queryIntegers: string[];
  /** Whether its request body is required (`requestBody.required`). */
  bodyRequired: boolean;
  /** The schema of its JSON request body as the contract writes it (`$ref`s kept), when it takes one. */
  jsonBodySchema: Json | undefined;
  /** The `WWW-Authenticate` challenge its 401 carries (the header's `schema` › `const`). */
  challenge: string | undefined;
}

/** openapi.yaml, read once: the operations below and the validator's document both come from it. */
const served = shippedContract();

/** The contract as the shared reader reads it (`$ref`s followed on demand), for what walks its schemas. */
export const servedContract: ContractDocument = served;

/** The parsed document: the validator's input (it takes its own copy) and what tests walk. Not to be mutated. */
export function loadContract() {
  return served.doc;
}

function challengeOf(contract: ContractDocument, responses: Json | undefined): string | undefined {
  const response = contract.deref(isObject(responses) ? responses['401'] : undefined);
  const headers = isObject(response) && isObject(response.headers) ? response.headers : {};
  const header = contract.deref(headers['WWW-Authenticate']);
  const schema = isObject(header) ? contract.deref(header.schema) : undefined;
  return isObject(schema) && typeof schema.const === 'string' ? schema.const : undefined;
}

function operationsOf(contract: ContractDocument): Operation[] {
  return contract.listOperations().map((operation) => {
    if (!operation.scheme) throw new Error(`${operation.operationId} has no security requirement in the contract`);
    return {
      operationId: operation.operationId as OperationId,
      method: operation.method,
      path: operation.path,
      scheme: operation.scheme as SecuritySchemeName,
      scopes: operation.scopes,
      idempotent: operation.idempotent,
      perStoreLimit:
        typeof operation.raw['x-per-store-limit'] === 'number' ? operation.raw['x-per-store-limit'] : undefined,
      queryIntegers: queryIntegerNames(contract, operation.parameters),
      bodyRequired: isObject(operation.raw.requestBody) && operation.raw.requestBody.required === true,
      jsonBodySchema: contract.jsonBodySchema(operation),
      challenge: challengeOf(contract, operation.raw.responses),
    };
  });
}

export const contractOperations = operationsOf(served);
/**
 * Every scope any operation names: the default scopes of a new API key. The contract's ScopeName enum lists the
 * same (rules.test.ts keeps them equal), hence the type.
 */
export const allScopes = [
  ...new Set(contractOperations.flatMap((operation) => operation.scopes)),
].sort() as components['schemas']['ScopeName'][];

/** The operation of this id (every id of `OperationId` is one of the contract's). */
export function operationOf(operationId: OperationId): Operation {
  const operation = contractOperations.find((candidate) => candidate.operationId === operationId);
  if (!operation) throw new Error(`${operationId} is not an operation of the contract`);
  return operation;
}

/** An entry of a table of texts (`x-labels`, `x-messages`). */
export const isText = (entry: unknown): entry is string => typeof entry === 'string';
/** A finite number the contract states (a bound, an amount). */
export const isNumber = (entry: unknown): entry is number => typeof entry === 'number' && Number.isFinite(entry);

/**
 * A table the contract states on an enum schema as a vendor extension (`x-labels`, `x-manual-transitions`): one
 * entry per value of the enum, each one `isEntry` accepts, and no other. Anything else stops start-up: the
 * contract is the one place such a table is written.
 */
export function enumTable<Value extends string, Entry>(
  schema: string,
  extension: string,
  values: readonly Value[],
  isEntry: (entry: unknown) => entry is Entry,
): Record<Value, Entry> {
  return enumTableOf(served, schema, extension, values, isEntry);
}

/** `enumTable` of any contract document (the tests give it broken ones). */
export function enumTableOf<Value extends string, Entry>(
  contract: ContractDocument,
  schema: string,
  extension: string,
  values: readonly Value[],
  isEntry: (entry: unknown) => entry is Entry,
): Record<Value, Entry> {
  const node = contract.pointer(`#/components/schemas/${schema}`);
  const table = isObject(node) ? node[extension] : undefined;
  if (!isObject(table)) throw new Error(`the contract's ${schema} has no ${extension} table`);
  const wrong = values.filter((value) => !isEntry(table[value]));
  const extra = Object.keys(table).filter((key) => !(values as readonly string[]).includes(key));
  if (wrong.length > 0 || extra.length > 0) {
    throw new Error(
      `the contract's ${schema} ${extension} must hold an entry for each of ${values.join(', ')} and no other (wrong or missing: ${[...wrong, ...extra].join(', ')})`,
    );
  }
  return Object.fromEntries(values.map((value) => [value, table[value]])) as Record<Value, Entry>;
}

/** What the contract states at a JSON pointer, such as a vendor extension; none, or of another kind, stops start-up. */
export function contractValue<Value>(pointer: string, is: (value: unknown) => value is Value, kind: string): Value {
  const value = served.pointer(pointer);
  if (!is(value)) throw new Error(`the contract states no ${kind} at ${pointer}`);
  return value;
}

/** A text the contract states (`x-url-template`, ...). */
export const contractText = (pointer: string): string => contractValue(pointer, isText, 'text');

/** A whole number the contract states (`x-default-length`, ...). */
export const contractCount = (pointer: string): number =>
  contractValue(pointer, (value): value is number => Number.isSafeInteger(value), 'whole number');

/** The value at `path` (property names) inside a node of the contract, if there is one. */
export const valueAt = (node: Json | undefined, path: readonly string[]): Json | undefined =>
  path.reduce<Json | undefined>((at, key) => (isObject(at) ? at[key] : undefined), node);

/** Every schema under `node` that carries `x-rule: id`, depth first (a rule may take one branch per case). */
function schemasOfRule(node: Json | undefined, id: string, found: JsonObject[] = []): JsonObject[] {
  if (Array.isArray(node)) for (const item of node) schemasOfRule(item, id, found);
  if (!isObject(node)) return found;
  if (node['x-rule'] === id) found.push(node);
  for (const value of Object.values(node)) schemasOfRule(value, id, found);
  return found;
}

/** The schemas of a rule (`x-rule: id`) under components/schemas, in the file's order; none stops start-up. */
export function ruleSchemas(id: string): JsonObject[] {
  const schemas = schemasOfRule(served.pointer('#/components/schemas'), id);
  if (schemas.length === 0) throw new Error(`the contract has no schema of the rule ${id}`);
  return schemas;
}

/**
 * A bound the contract states in the schema of a rule (`x-rule: id`), at `path` inside it: e.g. the SMS limit,
 * `ruleBound('template-sms-length', ['then', 'properties', 'message', 'maxLength'])`. No such number stops start-up.
 */
export function ruleBound(id: string, path: readonly string[]): number {
  const bound = valueAt(ruleSchemas(id)[0], path);
  if (typeof bound !== 'number') throw new Error(`the contract's rule ${id} states no number at ${path.join('.')}`);
  return bound;
}

/**
 * The form of a scheme's keys: as the contract writes it (`sf_live_<43 base64url characters>`), as a pattern, and
 * the header that carries them (`authorization` for a bearer scheme).
 */
export interface KeyForm {
  format: string;
  pattern: RegExp;
  header: string;
}

/** The form of a scheme's keys (`bearerFormat`, `x-key-format`); none stops start-up. */
function keyForm(name: SecuritySchemeName): KeyForm {
  const scheme = served.securityScheme(name);
  const format = credentialFormat(scheme);
  if (format === undefined) throw new Error(`the contract states no key format for ${name}`);
  const header = scheme?.type === 'apiKey' ? String(scheme.name).toLowerCase() : 'authorization';
  return { format, pattern: bearerFormatPattern(format), header };
}

/** An API key's form: the contract's `ApiKeyAuth` › `bearerFormat` (`sf_live_<43 base64url characters>`). */
export const apiKeyForm = keyForm('ApiKeyAuth');
/** An external checkout key's form: `CheckoutApiKey` › `x-key-format` (`sf_checkout_<43 base64url characters>`). */
export const checkoutKeyForm = keyForm('CheckoutApiKey');

const statedMaxBodyBytes = maxBodyBytesOf(served);
if (statedMaxBodyBytes === undefined) throw new Error('the contract states no info x-max-body-bytes');
/** The largest request body, in bytes: the contract's `info` › `x-max-body-bytes` (beyond it 413). */
export const maxBodyBytes: number = statedMaxBodyBytes;

const requestIdAllowed = requestIdRule(served);
if (!requestIdAllowed) throw new Error('the contract states no pattern for the RequestId header');
/** Whether a client's `X-Request-Id` is one the contract's `RequestId` header allows (it is echoed then). */
export const isRequestId: (id: string) => boolean = requestIdAllowed;
