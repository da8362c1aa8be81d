import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import pino from 'pino';
import type { OperationId } from '../src/contract.ts';
import { type Engine, openStore } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { createRepositories } from '../src/resources/index.ts';
import type { Deps, Input } from '../src/resources/operation.ts';
import { TEST_DATABASE_URL } from './harness.ts';

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
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sf-events-'));
  const schema = engine === 'postgres' ? `t_${randomBytes(6).toString('hex')}` : undefined;
  const store = openStore({ dataDir, ...(schema ? { databaseUrl: TEST_DATABASE_URL, databaseSchema: schema } : {}) });
  await migrate(store, schema);
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
    async close() {
      if (schema) await sql.raw(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).execute(store.db);
      await store.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const silent = pino({ level: 'silent' });

/** The input a handler receives, with nothing but what the test gives. */
export function input<Op extends OperationId>(given: Partial<Input<Op>>): Input<Op> {
  return { path: {}, query: {}, body: undefined, storeId: '', log: silent, ...given } as Input<Op>;
}
