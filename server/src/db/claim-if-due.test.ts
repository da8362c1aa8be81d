import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockHeldElsewhere } from '../../test/lock-held-elsewhere.ts';
import { createRepositories } from '../resources/index.ts';
import { openStore, SQLITE_FILE, type Store } from './database.ts';
import { migrate } from './migrate.ts';

const HELD_MS = 3000;

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

describe("the delivery worker's claims, with nothing due", () => {
  it('answer at once while another connection holds the write lock: they look before they take it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sf-claim-'));
    const store: Store = openStore({ dataDir: dir });
    cleanup = async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    };
    await migrate(store);
    const { webhookDeliveries, automationRuns } = createRepositories(store.db, store.engine);
    const { released } = await lockHeldElsewhere(path.join(dir, SQLITE_FILE), HELD_MS);
    const started = Date.now();
    const now = new Date().toISOString();
    // Before, each claim's transaction waited on this thread until the lock was let go.
    expect(await webhookDeliveries.claimDueDeliveries(now, 10, () => now)).toEqual([]);
    expect(await automationRuns.claimDueRuns(now, now, 10)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(HELD_MS / 2);
    await released;
  });
});
