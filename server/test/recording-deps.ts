import { randomUUID } from 'node:crypto';
import { Ajv2020 } from 'ajv/dist/2020.js';
import pino from 'pino';
import { afterAll, beforeAll, describe } from 'vitest';
import { isObject, type Json } from '../../lib/contract.ts';
import { type OperationId, operationOf, servedContract } from '../src/contract.ts';
import type { Engine } from '../src/db/database.ts';
import { createRepositories } from '../src/resources/index.ts';
import type { Deps, Input } from '../src/resources/operation.ts';
import { engines, freshStore } from './harness.ts';

export interface RecordedEvent {
  storeId: string;
  name: string;
  payload: Record<string, unknown>;
}

export interface RecordingDeps {
  deps: Deps;
  /** Every domain event emitted so far, in order. */
  events: RecordedEvent[];
  close(): Promise<void>;
}

/**
 * Handler dependencies on a fresh store whose event bus only records: lets a test call a handler directly and
 * see exactly which domain events it emits, with which payloads (webhook delivery is another group's concern).
 */
export async function recordingDeps(engine: Engine): Promise<RecordingDeps> {
  const { store, close } = await freshStore(engine);
  const events: RecordedEvent[] = [];
  return {
    deps: {
      repositories: createRepositories(store.db, store.engine),
      events: {
        emit: async (storeId, name, payload) => {
          events.push({ storeId, name, payload });
        },
      },
      network: { allowPrivateNetworks: false },
    },
    events,
    close,
  };
}

const silent = pino({ level: 'silent' });

/** The contract's schemas, compiled to fill in their defaults as the server's validator does (`useDefaults`). */
const defaultsFiller = new Ajv2020({ strict: false, useDefaults: true, validateFormats: false });
defaultsFiller.addSchema(servedContract.doc as object, 'contract');
/** A schema node of the contract with its local `$ref`s pointing into the contract added above. */
const inContract = (node: Json): Json =>
  Array.isArray(node)
    ? node.map(inContract)
    : isObject(node)
      ? Object.fromEntries(
          Object.entries(node).map(([key, value]) => [
            key,
            key === '$ref' && typeof value === 'string' && value.startsWith('#')
              ? `contract${value}`
              : inContract(value),
          ]),
        )
      : node;

/**
 * A request body as the validator hands it to a handler: what the test leaves out that the contract's schema gives
 * a `default`, filled in with that default.
 */
export function validatedBody<Op extends OperationId>(
  operationId: Op,
  body: Partial<Input<Op>['body']>,
): Input<Op>['body'] {
  const schema = operationOf(operationId).jsonBodySchema;
  if (schema === undefined) throw new Error(`${operationId} takes no JSON body`);
  const filled = structuredClone(body);
  defaultsFiller.compile(inContract(schema) as object)(filled);
  return filled as Input<Op>['body'];
}

/** The input a handler receives, with nothing but what the test gives. */
export function input<Op extends OperationId>(given: Partial<Input<Op>>): Input<Op> {
  return { path: {}, query: {}, body: undefined, storeId: '', log: silent, ...given } as Input<Op>;
}

/** What a domain events suite works with: a store of its own, the recording handler dependencies, their events. */
export interface EventsContext {
  storeId: string;
  readonly deps: Deps;
  readonly events: RecordedEvent[];
}

/**
 * Runs the suite once per engine (SERVER_TEST_ENGINES) on recording handler dependencies (see `recordingDeps`)
 * and a store made for it.
 */
export function describeDomainEvents(title: string, suite: (context: EventsContext) => void): void {
  describe.each(engines)(`${title} on %s`, (engine) => {
    let recording: RecordingDeps | undefined;
    const started = (): RecordingDeps => {
      if (!recording) throw new Error('the recording dependencies are made before the suite runs');
      return recording;
    };
    const context: EventsContext = {
      storeId: randomUUID(),
      get deps() {
        return started().deps;
      },
      get events() {
        return started().events;
      },
    };
    beforeAll(async () => {
      recording = await recordingDeps(engine);
      await recording.deps.repositories.stores.createStore({
        id: context.storeId,
        name: 'Loja Eventos',
        currency: 'BRL',
        createdAt: new Date().toISOString(),
      });
    });
    afterAll(() => recording?.close());
    suite(context);
  });
}
