import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { ApiError } from '../src/errors.ts';
import { REPLAY_WINDOW_MS, runIdempotently } from '../src/http/idempotency.ts';
import { idempotencyRepository } from '../src/repositories/idempotency-repository.ts';
import { engines, TEST_DATABASE_URL } from './harness.ts';

describe.each(engines)('idempotency keys on %s', (engine) => {
  let store: Store;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sf-idem-'));
  const schema = `t_${randomBytes(6).toString('hex')}`;
  let clock = Date.parse('2026-11-20T12:00:00.000Z');
  const now = () => clock;
  let executions = 0;
  const execute = async () => {
    executions += 1;
    return { status: 201, body: { success: true, data: { n: executions } } };
  };
  const scope = (key: string, body: unknown = { name: 'Caneca' }) => ({
    storeId: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
    key,
    operationId: 'createProduct',
    body,
  });

  beforeAll(async () => {
    store = openStore(
      engine === 'postgres' ? { databaseUrl: TEST_DATABASE_URL, databaseSchema: schema, dataDir } : { dataDir },
    );
    await migrate(store, engine === 'postgres' ? schema : undefined);
  });
  afterAll(async () => {
    if (engine === 'postgres') await sql.raw(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).execute(store.db);
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('replays within 24 hours and frees the key after them', async () => {
    const repository = idempotencyRepository(store.db);
    executions = 0;
    const first = await runIdempotently(repository, scope('janela'), execute, now);
    expect(first).toEqual({ status: 201, body: { success: true, data: { n: 1 } } });
    clock += REPLAY_WINDOW_MS - 1;
    expect(await runIdempotently(repository, scope('janela'), execute, now)).toEqual({
      ...first,
      headers: { 'Idempotent-Replayed': 'true' },
    });
    clock += 1;
    const later = await runIdempotently(repository, scope('janela', { name: 'Outra' }), execute, now);
    expect(later).toEqual({ status: 201, body: { success: true, data: { n: 2 } } });
    expect(executions).toBe(2);
  });

  it('refuses the same key with another body (422) and frees a key whose request failed', async () => {
    const repository = idempotencyRepository(store.db);
    await runIdempotently(repository, scope('corpo'), execute, now);
    await expect(runIdempotently(repository, scope('corpo', { name: 'Outro' }), execute, now)).rejects.toMatchObject({
      status: 422,
      code: 'IDEMPOTENCY_KEY_MISMATCH',
    });
    const failing = async (): Promise<never> => {
      throw new ApiError(409, 'DUPLICATE_ENTRY');
    };
    await expect(runIdempotently(repository, scope('falha'), failing, now)).rejects.toBeInstanceOf(ApiError);
    const retried = await runIdempotently(repository, scope('falha'), execute, now);
    expect(retried.status).toBe(201);
    expect(retried.headers).toBeUndefined();
  });
});
