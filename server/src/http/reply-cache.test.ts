import { describe, expect, test } from 'vitest';
import { ReplyCache, type ReplyCacheOptions } from './reply-cache.ts';

/** A store whose committed version the test moves, and reads that count themselves. */
function fixture(options?: ReplyCacheOptions) {
  let version = 1;
  const cache = new ReplyCache(() => String(version), options);
  let reads = 0;
  const read = (name: string) => async () => {
    reads += 1;
    return { status: 200, body: { success: true, data: { name, read: reads } } };
  };
  return { cache, read, commit: () => (version += 1), reads: () => reads };
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
});
