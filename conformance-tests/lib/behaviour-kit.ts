import { isObject, type JsonObject } from './contract.ts';
import { expectResponse } from './expect.ts';
import type { Exchange } from './http.ts';
import type { Capability } from './options.ts';
import { Failure } from './outcome.ts';
import type { Session } from './session.ts';
import { randomText } from './values.ts';

export interface BehaviourTest {
  operationId: string;
  rule: string;
  needs: Capability[];
  run(s: Session): Promise<void>;
}

export const data = (json: unknown): JsonObject => (isObject(json) && isObject(json.data) ? json.data : {});

export function assert(condition: unknown, message: string, exchange?: Exchange): asserts condition {
  if (!condition) throw new Failure(message, exchange);
}

/** A unique product body built from the contract's example. */
export async function productBody(s: Session, name = `Conformance ${randomText(10)}`): Promise<JsonObject> {
  const { body } = await s.validRequest(s.operation('createProduct'));
  return { ...(body as JsonObject), name, sku: null, barcode: null };
}

export async function createProduct(s: Session, body: JsonObject, headers: Record<string, string> = {}) {
  const op = s.operation('createProduct');
  const auth = await s.authHeaders(op);
  return expectResponse(s, op, 'create product', { headers: { ...auth, ...headers }, body }, { status: 201 });
}

/** Finds records of a list operation whose `search` matches. */
export async function search(s: Session, operationId: string, text: string, headers?: Record<string, string>) {
  const op = s.operation(operationId);
  const exchange = await expectResponse(
    s,
    op,
    'list',
    { headers: headers ?? (await s.authHeaders(op)), query: { search: text } },
    { status: 200 },
  );
  const list = Object.values(data(exchange.response.json)).find(Array.isArray) as JsonObject[] | undefined;
  return { exchange, items: list ?? [] };
}
