import { describe, expect, expectTypeOf, it } from 'vitest';
import { contractOperations, loadContract, type Operation, type OperationId } from '../src/contract.ts';
import { assertHandlersCoverContract } from '../src/http/routes.ts';
import { handlers } from '../src/resources/index.ts';
import type { Handlers } from '../src/resources/operation.ts';

const operation = (operationId: string, method: Operation['method'], contractPath: string): Operation => ({
  operationId: operationId as OperationId,
  method,
  path: contractPath,
  scheme: 'ApiKeyAuth',
  scopes: [],
  idempotent: false,
  perStoreLimit: undefined,
  queryIntegers: [],
  bodyRequired: false,
  jsonBodySchema: undefined,
  challenge: undefined,
});

/** A tiny contract: two operations on one path and one on another. */
const fixture = [
  operation('listThings', 'get', '/things'),
  operation('createThing', 'post', '/things'),
  operation('getThingById', 'get', '/things/{thingId}'),
];
const handler = async () => ({ status: 200, body: undefined });

describe('the handler map covers the contract', () => {
  const cases: [string, { given: Record<string, unknown>; want: RegExp | undefined }][] = [
    [
      'every operation has a handler',
      { given: { listThings: handler, createThing: handler, getThingById: handler }, want: undefined },
    ],
    [
      'one operation without a handler',
      { given: { listThings: handler, createThing: handler }, want: /operations without a handler: getThingById$/ },
    ],
    [
      'several operations without a handler',
      { given: { createThing: handler }, want: /operations without a handler: listThings, getThingById/ },
    ],
    [
      'a handler that is not a function',
      {
        given: { listThings: handler, createThing: 'createThing', getThingById: handler },
        want: /operations without a handler: createThing$/,
      },
    ],
    [
      'a handler without an operation',
      {
        given: { listThings: handler, createThing: handler, getThingById: handler, deleteThing: handler },
        want: /handlers without an operation: deleteThing/,
      },
    ],
    [
      'both problems at once',
      {
        given: { listThings: handler, getThingById: handler, removeThing: handler },
        want: /operations without a handler: createThing; handlers without an operation: removeThing/,
      },
    ],
  ];

  it.each(cases)('%s', (_name, { given, want }) => {
    const check = () => assertHandlersCoverContract(given, fixture);
    if (want) expect(check).toThrow(want);
    else expect(check).not.toThrow();
  });

  it('reads every operation of openapi.yaml, webhook deliveries excluded', () => {
    const raw = loadContract() as unknown as {
      paths: Record<string, Record<string, { operationId?: string }>>;
      webhooks: Record<string, Record<string, { operationId: string }>>;
    };
    const served = Object.values(raw.paths).flatMap((item) =>
      Object.values(item).flatMap((op) => (op.operationId ? [op.operationId] : [])),
    );
    const deliveries = Object.values(raw.webhooks).flatMap((item) => Object.values(item).map((op) => op.operationId));
    expect(deliveries.length).toBeGreaterThan(0);
    expect(contractOperations.map((op) => op.operationId).sort()).toEqual([...served].sort());
    expect(contractOperations.filter((op) => deliveries.includes(op.operationId))).toEqual([]);
    for (const op of contractOperations) {
      if (op.scheme === 'ApiKeyAuth') expect(op.scopes).toHaveLength(1);
    }
  });

  it('types as served the operations of paths: only (checked by the type check)', () => {
    expectTypeOf<'createWebhook' | 'updateWebhook' | 'deleteWebhook' | 'listWebhooks'>().toExtend<OperationId>();
    expectTypeOf<'orderPaidWebhook'>().not.toExtend<OperationId>();
    expectTypeOf<'productCreatedWebhook'>().not.toExtend<OperationId>();
    expectTypeOf<Handlers['createWebhook']>().toBeFunction();
  });

  it('has a handler function for every operationId of the contract, and none for anything else', () => {
    const missing = contractOperations.filter((op) => typeof handlers[op.operationId] !== 'function');
    expect(missing.map((op) => op.operationId)).toEqual([]);
    expect(() => assertHandlersCoverContract(handlers)).not.toThrow();
  });
});
