import { describe, expect, test } from 'vitest';
import { ReplyCache, type ReplyCacheOptions } from './reply-cache.ts';

/** One turn of the event loop, as a statement's answer takes. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * A store whose committed version the test moves, and reads that count themselves. `roundTrip`: the version is
 * answered later, as PostgreSQL's statement is, and each time it is taken is counted.
 */
function fixture(options?: ReplyCacheOptions & { roundTrip?: boolean }) {
  let version = 1;
  let versionsTaken = 0;
  const committedVersion = options?.roundTrip
    ? async () => {
        versionsTaken += 1;
        const taken = String(version);
        await nextTurn();
        return taken;
      }
    : () => String(version);
  const cache = new ReplyCache(committedVersion, options);
  let reads = 0;
  const read = (name: string) => async () => {
    reads += 1;
    return { status: 200, body: { success: true, data: { name, read: reads } } };
  };
  return { cache, read, commit: () => (version += 1), reads: () => reads, versionsTaken: () => versionsTaken };
}

const replyOf = (name: string, read: number) => ({
  status: 200,
  json: JSON.stringify({ success: true, data: { name, read } }),
});

describe('ReplyCache', () => {
  test('sends the remembered reply while nothing is committed, and reads again after a commit', async () => {
    const { cache, read, commit, reads } = fixture();
    expect(await cache.reply('a', read('a'))).toEqual(replyOf('a', 1));
    expect(await cache.reply('a', read('a'))).toEqual(replyOf('a', 1));
    expect(await cache.reply('b', read('b'))).toEqual(replyOf('b', 2));
    expect(reads()).toBe(2);

    commit();
    expect(await cache.reply('a', read('a'))).toEqual(replyOf('a', 3));
    expect(await cache.reply('b', read('b'))).toEqual(replyOf('b', 4));
    expect(await cache.reply('a', read('a'))).toEqual(replyOf('a', 3));
  });

  test('does not keep a reply when a read that began later saw a newer version', async () => {
    const { cache, read, commit } = fixture();
    let finishSlow: () => void = () => {};
    const slow = cache.reply('a', async () => {
      await new Promise<void>((resolve) => {
        finishSlow = resolve;
      });
      return { status: 200, body: 'read before the commit' };
    });
    await Promise.resolve();
    commit();
    expect(await cache.reply('b', read('b'))).toEqual(replyOf('b', 1));
    finishSlow();
    expect(await slow).toEqual({ status: 200, json: '"read before the commit"' });
    expect(await cache.reply('a', read('a'))).toEqual(replyOf('a', 2));
  });

  test('keeps nothing of a read that failed', async () => {
    const { cache, read } = fixture();
    const failure = new Error('read failed');
    await expect(cache.reply('a', () => Promise.reject(failure))).rejects.toBe(failure);
    expect(await cache.reply('a', read('a'))).toEqual(replyOf('a', 1));
  });

  test('forgets the oldest reply once it holds its most', async () => {
    const { cache, read, reads } = fixture({ maxReplies: 2 });
    await cache.reply('a', read('a'));
    await cache.reply('b', read('b'));
    await cache.reply('c', read('c'));
    expect(await cache.reply('b', read('b'))).toEqual(replyOf('b', 2));
    expect(await cache.reply('a', read('a'))).toEqual(replyOf('a', 4));
    expect(reads()).toBe(4);
  });

  test('with bodies, answers each request with an object of its own, equal to the first', async () => {
    const { cache, read, reads } = fixture({ bodies: true });
    const body = { success: true, data: { name: 'a', read: 1 } };
    const first = await cache.reply('a', read('a'));
    expect(first).toEqual({ status: 200, body });
    (first as { body: { data: { name: string } } }).body.data.name = 'changed by its sender';
    const second = await cache.reply('a', read('a'));
    expect(second).toEqual({ status: 200, body });
    expect(await cache.reply('a', read('a'))).not.toBe(second);
    expect(reads()).toBe(1);
  });

  test('with a version answered later, reads only once it is answered, and sends again what was read at it', async () => {
    const { cache, commit, versionsTaken } = fixture({ roundTrip: true });
    let readsBegun = 0;
    const read = async () => {
      readsBegun += 1;
      return { status: 200, body: { read: readsBegun } };
    };
    const first = cache.reply('a', read);
    expect(readsBegun).toBe(0);
    expect(await first).toEqual({ status: 200, json: '{"read":1}' });
    expect(await cache.reply('a', read)).toEqual({ status: 200, json: '{"read":1}' });
    commit();
    expect(await cache.reply('a', read)).toEqual({ status: 200, json: '{"read":2}' });
    expect({ readsBegun, versionsTaken: versionsTaken() }).toEqual({ readsBegun: 2, versionsTaken: 3 });
  });

  test('pausing while missing: after 64 checks of which fewer than 48 hit, the next 4,096 reads take no version and keep nothing, then checking starts again', async () => {
    const { cache, read, commit, reads, versionsTaken } = fixture({ roundTrip: true, pauseWhileMissing: true });
    // A commit before every read: every check misses.
    for (let i = 0; i < 64; i += 1) {
      commit();
      await cache.reply('a', read('a'));
    }
    expect({ reads: reads(), versionsTaken: versionsTaken() }).toEqual({ reads: 64, versionsTaken: 64 });
    // Paused: nothing changes now, yet every read runs and no version is taken.
    for (let i = 0; i < 4_096; i += 1) await cache.reply('a', read('a'));
    expect({ reads: reads(), versionsTaken: versionsTaken() }).toEqual({ reads: 4_160, versionsTaken: 64 });
    // Checking again: one read at a new version, then its reply is sent again.
    commit();
    expect(await cache.reply('a', read('a'))).toEqual(replyOf('a', 4_161));
    expect(await cache.reply('a', read('a'))).toEqual(replyOf('a', 4_161));
    expect({ reads: reads(), versionsTaken: versionsTaken() }).toEqual({ reads: 4_161, versionsTaken: 66 });
  });

  test.each([
    [48, 'go on checking'],
    [47, 'pause'],
  ])('pausing while missing: %i hits in 64 checks %s', async (hits, outcome) => {
    const { cache, read, commit, versionsTaken } = fixture({ roundTrip: true, pauseWhileMissing: true });
    // A miss, the same read again `hits` times, and misses of other reads for the rest of the 64 checks.
    commit();
    for (let i = 0; i <= hits; i += 1) await cache.reply('a', read('a'));
    for (let i = 0; i < 63 - hits; i += 1) await cache.reply(`other ${i}`, read('other'));
    expect(versionsTaken()).toBe(64);
    await cache.reply('a', read('a'));
    expect(versionsTaken()).toBe(outcome === 'pause' ? 64 : 65);
  });

  test('without pausing (the embedded store), checks that all miss go on checking', async () => {
    const { cache, read, commit, reads } = fixture({ roundTrip: true });
    for (let i = 0; i < 200; i += 1) {
      commit();
      await cache.reply('a', read('a'));
    }
    expect(await cache.reply('a', read('a'))).toEqual(replyOf('a', 200));
    expect(reads()).toBe(200);
  });

  /** A read that answers when the test says, counting how many began. */
  function heldReads() {
    const held: { answer: (body: unknown) => void; fail: (error: Error) => void }[] = [];
    const read = () =>
      new Promise<{ status: number; body: unknown }>((resolve, reject) => {
        held.push({ answer: (body) => resolve({ status: 200, body }), fail: reject });
      });
    return { read, held };
  }

  test('a request at the version of a read of it still on its way waits for that read instead of reading again', async () => {
    const { cache, versionsTaken } = fixture({ roundTrip: true });
    const { read, held } = heldReads();
    const first = cache.reply('a', read);
    await nextTurn();
    const second = cache.reply('a', read);
    await nextTurn();
    expect({ readsBegun: held.length, versionsTaken: versionsTaken() }).toEqual({ readsBegun: 1, versionsTaken: 2 });
    held[0]?.answer({ read: 1 });
    expect(await first).toEqual({ status: 200, json: '{"read":1}' });
    expect(await second).toEqual({ status: 200, json: '{"read":1}' });
  });

  test('a request at a newer version reads for itself, and one that waited reads for itself when the read it waited for fails', async () => {
    const { cache, commit } = fixture({ roundTrip: true });
    const { read, held } = heldReads();
    const first = cache.reply('a', read);
    await nextTurn();
    const waiting = cache.reply('a', read);
    commit();
    const newer = cache.reply('a', read);
    await nextTurn();
    expect(held.length).toBe(2);
    const failure = new Error('read failed');
    held[0]?.fail(failure);
    await expect(first).rejects.toBe(failure);
    await nextTurn();
    expect(held.length).toBe(3);
    held[1]?.answer({ read: 'newer' });
    held[2]?.answer({ read: 'its own' });
    expect(await newer).toEqual({ status: 200, json: '{"read":"newer"}' });
    // Its own read's reply, kept by nobody: the version it read at may have moved since the read it waited for.
    expect(await waiting).toEqual({ status: 200, body: { read: 'its own' } });
  });
});
