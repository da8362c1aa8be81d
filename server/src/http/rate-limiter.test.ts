import { randomBytes } from 'node:crypto';
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engines, freshStore } from '../../test/harness.ts';
import type { Store } from '../db/database.ts';
import { leaseCap, type RateLimitDecision, sqlRateLimiter } from './rate-limiter.ts';

/** A handle on the same pool that counts the statements sent through it. */
function counting(store: Store): { store: Store; statements: () => number } {
  let count = 0;
  const plugin: KyselyPlugin = {
    transformQuery: ({ node }) => {
      count += 1;
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  return { store: { ...store, db: store.db.withPlugin(plugin) }, statements: () => count };
}

const admitted = (decisions: RateLimitDecision[]) => decisions.filter((decision) => decision.allowed).length;

describe.runIf(engines.includes('postgres'))('sqlRateLimiter on postgres', () => {
  let store: Store;
  let close: () => Promise<void>;
  const window = { max: 1_000, windowSeconds: 3_600 };
  const bucket = () => `key:${randomBytes(8).toString('hex')}`;

  beforeAll(async () => {
    ({ store, close } = await freshStore('postgres'));
  });
  afterAll(() => close());

  it('answers 200 hits of one instance with every remaining count in turn, in a few statements, not one each', async () => {
    const { store: counted, statements } = counting(store);
    const limiter = sqlRateLimiter(counted, window);
    const key = bucket();
    const remaining: number[] = [];
    for (let hit = 0; hit < 200; hit += 1) remaining.push((await limiter.hit(key)).remaining);
    expect(remaining).toEqual(Array.from({ length: 200 }, (_, index) => window.max - 1 - index));
    // Leases of 1, 2, 4, 8, 16, then the cap (20 at this limit): 200 numbers in 14 statements.
    expect(leaseCap(window.max)).toBe(20);
    expect(statements()).toBe(14);
  });

  it('admits exactly the limit to one instance under concurrent hits, then refuses without asking the store', async () => {
    const { store: counted, statements } = counting(store);
    const limit = { max: 60, windowSeconds: 3_600 };
    const limiter = sqlRateLimiter(counted, limit);
    const key = bucket();
    const decisions = await Promise.all(Array.from({ length: 100 }, () => limiter.hit(key)));
    expect(admitted(decisions)).toBe(60);
    const used = statements();
    const refused = await limiter.hit(key);
    expect(refused).toMatchObject({ allowed: false, remaining: 0, limit: 60 });
    expect(statements()).toBe(used);
  });

  it('never admits more than the limit across four instances hitting one bucket at once', async () => {
    const limit = { max: 250, windowSeconds: 3_600 };
    const instances = Array.from({ length: 4 }, () => sqlRateLimiter(store, limit));
    const key = bucket();
    const decisions = await Promise.all(
      Array.from({ length: 600 }, (_, index) => instances[index % instances.length]?.hit(key)),
    );
    const count = admitted(decisions.filter((decision) => decision !== undefined));
    expect(count).toBeLessThanOrEqual(250);
    // What leases left unused when the others filled the window: at most a lease per instance.
    expect(count).toBeGreaterThanOrEqual(250 - 4 * (leaseCap(250) - 1));
  });
});
