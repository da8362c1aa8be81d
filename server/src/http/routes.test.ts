import { describe, expect, it } from 'vitest';
import { duplicateEntry } from '../errors.ts';
import type { Deps } from '../resources/operation.ts';
import type { StoredReply } from './idempotency.ts';
import { type Storage, writeClaimingAhead } from './routes.ts';

/** A store whose writes run `work` on no dependencies, counting them. */
function countingStorage() {
  const storage = {
    writes: 0,
    deps: {} as Deps,
    write<Result>(work: (deps: Deps) => Promise<Result>): Promise<Result> {
      storage.writes++;
      return work(storage.deps);
    },
  };
  return storage satisfies Storage;
}

const replay: StoredReply = { status: 201, body: { n: 1 }, headers: { 'Idempotent-Replayed': 'true' } };

describe('writeClaimingAhead', () => {
  // A request with the same key and body that committed between the claim's snapshot and its lock: the try with
  // the claim ahead meets its slug before its record; claiming first then finds the record and replays it.
  it('runs a keyed write that met a duplicate again claiming first, and answers what that run answers', async () => {
    const storage = countingStorage();
    const runs: boolean[] = [];
    const reply = await writeClaimingAhead(storage, true, async (_deps, claimAhead) => {
      runs.push(claimAhead);
      if (claimAhead) throw duplicateEntry('slug', 'slug já utilizado');
      return replay;
    });
    expect({ reply, runs, writes: storage.writes }).toEqual({ reply: replay, runs: [true, false], writes: 2 });
  });

  it('answers a write without a key that met a duplicate with the duplicate, run once', async () => {
    const storage = countingStorage();
    const runs: boolean[] = [];
    const write = writeClaimingAhead(storage, false, async (_deps, claimAhead) => {
      runs.push(claimAhead);
      throw duplicateEntry('slug', 'slug já utilizado');
    });
    await expect(write).rejects.toMatchObject({ status: 409, code: 'DUPLICATE_ENTRY' });
    expect(runs).toEqual([true]);
  });

  it('answers any other failure of a keyed write as it is, run once', async () => {
    const storage = countingStorage();
    const runs: boolean[] = [];
    const write = writeClaimingAhead(storage, true, async (_deps, claimAhead) => {
      runs.push(claimAhead);
      throw new Error('boom');
    });
    await expect(write).rejects.toThrow('boom');
    expect(runs).toEqual([true]);
  });
});
