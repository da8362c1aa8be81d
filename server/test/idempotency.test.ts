import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../src/db/database.ts';
import { ApiError } from '../src/errors.ts';
import {
  REPLAY_WINDOW_MS,
  requestHash,
  runClaimingAhead,
  runIdempotently,
  type StoredReply,
} from '../src/http/idempotency.ts';
import { idempotencyRepository, isKeyUnclaimed } from '../src/http/idempotency-store.ts';
import { engines, freshStore } from './harness.ts';

describe('requestHash', () => {
  // Pinned: a key recorded by one version is replayed by the next only while the same body hashes the same.
  it('hashes a body by its canonical JSON, the same whatever the order of its keys, as every version has', () => {
    const body = {
      zeta: [1, 'dois', { b: null, a: true, ção: -0.5 }],
      alfa: { y: [], x: {} },
      '': 'vazio',
      Z: 2,
      a: 3,
      '10': 'dez',
      '9': 'nove',
    };
    const hash = '7c33f5fbbec6b598971f75176dc2b73f4026031b663a742e715f01b31abef89a';
    expect(requestHash('createProduct', body)).toBe(hash);
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    expect(requestHash('createProduct', reordered)).toBe(hash);
    expect(requestHash('updateProduct', body)).not.toBe(hash);
    const none = 'f303fbb697157c50818dd7f4741da4ecd2445927891f6b62ec0aef321ef4c361';
    expect(requestHash('createProduct', undefined)).toBe(none);
    expect(requestHash('createProduct', null)).toBe(none);
    expect(requestHash('createProduct', 'x')).toBe('0b1c5b04bd928736a09a01617f94c2b7b68ba8a263a96030f396ec422376e3bc');
  });
});

describe.each(engines)('idempotency keys on %s', (engine) => {
  let store: Store;
  let clock = Date.parse('2026-11-20T12:00:00.000Z');
  const now = () => clock;
  let executions = 0;
  const execute = async () => {
    executions += 1;
    return { status: 201, body: { success: true, data: { n: executions } } };
  };
  /** What a run answers with the reply of the execution numbered `n`: recorded for its key, its JSON text with it. */
  const recorded = (n: number) => {
    const body = { success: true, data: { n } };
    return { status: 201, body, json: JSON.stringify(body) };
  };
  const scope = (key: string, body: unknown = { name: 'Caneca' }) => ({
    storeId: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
    key,
    operationId: 'createProduct',
    body,
  });

  let close: () => Promise<void>;

  beforeAll(async () => {
    ({ store, close } = await freshStore(engine));
  });
  afterAll(() => close());

  /** As a write runs it: the claim, the change and the stored reply in one transaction. */
  const run = (given: ReturnType<typeof scope>, work: () => Promise<StoredReply> = execute) =>
    store.db.transaction().execute((trx) => runIdempotently(idempotencyRepository(trx, engine), given, work, now));

  it('replays within 24 hours and frees the key after them', async () => {
    executions = 0;
    const first = await run(scope('janela'));
    expect(first).toEqual(recorded(1));
    clock += REPLAY_WINDOW_MS - 1;
    expect(await run(scope('janela'))).toEqual({
      ...first,
      headers: { 'Idempotent-Replayed': 'true' },
    });
    clock += 1;
    const later = await run(scope('janela', { name: 'Outra' }));
    expect(later).toEqual(recorded(2));
    expect(executions).toBe(2);
  });

  it('refuses the same key with another body (422) and frees a key whose request failed', async () => {
    await run(scope('corpo'));
    await expect(run(scope('corpo', { name: 'Outro' }))).rejects.toMatchObject({
      status: 422,
      code: 'IDEMPOTENCY_KEY_MISMATCH',
    });
    const failing = async (): Promise<never> => {
      throw new ApiError('DUPLICATE_ENTRY');
    };
    await expect(run(scope('falha'), failing)).rejects.toBeInstanceOf(ApiError);
    const retried = await run(scope('falha'));
    expect(retried.status).toBe(201);
    expect(retried.headers).toBeUndefined();
  });

  it('takes over a claim left pending by a crash between claim and result, and runs the request once', async () => {
    executions = 0;
    await idempotencyRepository(store.db, engine).claim(
      scope('abandonada').storeId,
      'abandonada',
      'createProduct',
      'hash-of-a-request-that-died',
      new Date(clock).toISOString(),
    );
    const first = await run(scope('abandonada'));
    expect(first).toEqual(recorded(1));
    expect(await run(scope('abandonada'))).toEqual({ ...first, headers: { 'Idempotent-Replayed': 'true' } });
    expect(executions).toBe(1);
  });

  it('answers a request that arrives while the first with its key runs: 409 on PostgreSQL, the replay on the embedded store', async () => {
    executions = 0;
    const slow = async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      return execute();
    };
    const created = recorded(1);
    const replay = { ...created, headers: { 'Idempotent-Replayed': 'true' } };
    const settled = await Promise.allSettled([run(scope('corrida'), slow), run(scope('corrida'), slow)]);
    const answers = settled.map((outcome) =>
      outcome.status === 'fulfilled' ? outcome.value : { refused: (outcome.reason as ApiError).code },
    );
    const second = engine === 'postgres' ? { refused: 'IDEMPOTENCY_KEY_IN_USE' } : replay;
    expect(answers).toEqual(expect.arrayContaining([created, second]));
    expect(answers).toHaveLength(2);
    expect(executions).toBe(1);
    expect(await run(scope('corrida'))).toEqual(replay);
  });

  describe.skipIf(engine !== 'postgres')('with the claim sent ahead (PostgreSQL)', () => {
    /** As a write's first try runs it on PostgreSQL: the claim ahead, the change and the stored reply. */
    const runAhead = (given: ReturnType<typeof scope>, work: () => Promise<StoredReply> = execute) =>
      store.db.transaction().execute((trx) => {
        const repository = idempotencyRepository(trx, engine);
        if (!repository.ahead) throw new Error('PostgreSQL claims ahead');
        return runClaimingAhead(repository, repository.ahead, given, work, now);
      });
    const unclaimed = (outcome: Promise<unknown>) =>
      outcome.then(
        () => 'answered',
        (error: unknown) => (isKeyUnclaimed(error) ? 'key not free' : error),
      );

    it('remembers a first request; with the key taken a try fails, whatever its body, and the claim first replays', async () => {
      executions = 0;
      const first = await runAhead(scope('adiante'));
      expect(first).toEqual(recorded(1));
      expect(await unclaimed(runAhead(scope('adiante')))).toBe('key not free');
      expect(await unclaimed(runAhead(scope('adiante', { name: 'Outra' })))).toBe('key not free');
      // A try whose key was not free may have run the handler; its transaction failed, so nothing of it is kept.
      expect(await run(scope('adiante'))).toEqual({ ...first, headers: { 'Idempotent-Replayed': 'true' } });
    });

    it('tells a key not free from a handler that fails before any statement, so a replay is not answered with it', async () => {
      executions = 0;
      await runAhead(scope('cedo'));
      const failsAtOnce = async (): Promise<StoredReply> => {
        throw new ApiError('REFERENCE_NOT_FOUND');
      };
      expect(await unclaimed(runAhead(scope('cedo'), failsAtOnce))).toBe('key not free');
    });

    it('keeps nothing of a try whose key another request recorded after its claim looked, and the claim first replays that record', async () => {
      executions = 0;
      const given = scope('entre');
      const recordedMeanwhile = { status: 201, body: { success: true, data: { n: 99 } } };
      const outcome = store.db.transaction().execute((trx) => {
        const repository = idempotencyRepository(trx, engine);
        if (!repository.ahead) throw new Error('PostgreSQL claims ahead');
        return runClaimingAhead(
          repository,
          repository.ahead,
          given,
          async () => {
            // The claim has looked and found the key free; another request records it now, on another connection,
            // as one that committed between the claim's snapshot and its lock would have.
            await repository.settled();
            await store.db
              .insertInto('idempotency_keys')
              .values({
                store_id: given.storeId,
                idempotency_key: given.key,
                operation_id: given.operationId,
                request_hash: requestHash(given.operationId, given.body),
                state: 'done',
                status: recordedMeanwhile.status,
                body: JSON.stringify(recordedMeanwhile.body),
                created_at: new Date(clock).toISOString(),
              })
              .execute();
            return execute();
          },
          now,
        );
      });
      expect(await unclaimed(outcome)).toBe('key not free');
      expect(await run(given)).toEqual({
        ...recordedMeanwhile,
        json: JSON.stringify(recordedMeanwhile.body),
        headers: { 'Idempotent-Replayed': 'true' },
      });
      expect(executions).toBe(1);
    });

    it('answers a handler failure on a free key with that failure, and leaves the key free', async () => {
      executions = 0;
      const failsAtOnce = async (): Promise<StoredReply> => {
        throw new ApiError('REFERENCE_NOT_FOUND');
      };
      await expect(runAhead(scope('livre'), failsAtOnce)).rejects.toMatchObject({ status: 422 });
      expect(await runAhead(scope('livre'))).toEqual(recorded(1));
    });
  });
});
