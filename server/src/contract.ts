import { readFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import type { components, operations } from '../../generated/openapi.ts';

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

export const CONTRACT_PATH = path.resolve(import.meta.dirname, '../../openapi.yaml');

type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';
const METHODS: HttpMethod[] = ['get', 'post', 'put', 'patch', 'delete'];

export type SecuritySchemeName = 'ApiKeyAuth' | 'AdminToken' | 'CheckoutApiKey';

/** What the server needs to know of one operation; everything here is read from openapi.yaml. */
export interface Operation {
  operationId: OperationId;
  method: HttpMethod;
  /** The contract's path, e.g. `/api/v1/products/{productId}`. */
  path: string;
  /** The same path in Express syntax, e.g. `/api/v1/products/:productId`. */
  expressPath: string;
  scheme: SecuritySchemeName;
  /** Scopes the API key needs (ApiKeyAuth only). */
  scopes: string[];
  /** Whether the operation accepts an `Idempotency-Key` header. */
  idempotent: boolean;
}

interface RawParameter {
  $ref?: string;
  name?: string;
  in?: string;
}
interface RawOperation {
  operationId: OperationId;
  security?: Record<string, string[]>[];
  parameters?: RawParameter[];
}
export interface RawContract {
  paths: Record<string, Partial<Record<HttpMethod, RawOperation>> & { parameters?: RawParameter[] }>;
  components: { parameters: Record<string, RawParameter> };
  security: Record<string, string[]>[];
}

export function loadContract(file = CONTRACT_PATH): RawContract {
  return YAML.parse(readFileSync(file, 'utf8')) as RawContract;
}

function resolveParameter(contract: RawContract, parameter: RawParameter): RawParameter {
  const name = parameter.$ref?.replace('#/components/parameters/', '');
  return name ? (contract.components.parameters[name] ?? parameter) : parameter;
}

export function operationsOf(contract: RawContract): Operation[] {
  const result: Operation[] = [];
  for (const [contractPath, item] of Object.entries(contract.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      const requirement = (operation.security ?? contract.security)[0] ?? {};
      const [scheme, scopes] = Object.entries(requirement)[0] ?? ['ApiKeyAuth', []];
      const parameters = [...(item.parameters ?? []), ...(operation.parameters ?? [])].map((parameter) =>
        resolveParameter(contract, parameter),
      );
      result.push({
        operationId: operation.operationId,
        method,
        path: contractPath,
        expressPath: contractPath.replace(/\{([^}]+)\}/g, ':$1'),
        scheme: scheme as SecuritySchemeName,
        scopes,
        idempotent: parameters.some((parameter) => parameter.in === 'header' && parameter.name === 'Idempotency-Key'),
      });
    }
  }
  return result;
}

export const contract = loadContract();
export const contractOperations = operationsOf(contract);
/**
 * Every scope any operation names: the default scopes of a new API key. The contract's ScopeName enum lists the
 * same (rules.test.ts keeps them equal), hence the type.
 */
export const allScopes = [
  ...new Set(contractOperations.flatMap((operation) => operation.scopes)),
].sort() as components['schemas']['ScopeName'][];
