import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test } from 'vitest';
import { RECORD_ID } from '../../test/catalog.ts';
import { newId } from './new-id.ts';

test('an id is a UUID of version 7, and one made a millisecond later sorts after it', async () => {
  const first = newId();
  await sleep(2);
  const later = newId();
  expect(first).toMatch(RECORD_ID);
  expect(later).toMatch(RECORD_ID);
  expect(later > first).toBe(true);
  expect(new Set(Array.from({ length: 10_000 }, newId)).size).toBe(10_000);
});
