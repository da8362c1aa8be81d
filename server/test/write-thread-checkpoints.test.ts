import { statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore, SQLITE_FILE } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { restartGate } from '../src/db/sqlite-restart-gate.ts';
import type { OperationCall } from '../src/http/routes.ts';
import { startWriteThread } from '../src/write-thread.ts';
import { tempDir } from './temp-dir.ts';

/** The WAL's size after `writes` store creations through a write thread told (or not) that the checkpointer failed. */
async function walBytesAfter(writes: number, checkpointerFellBack: Promise<void>): Promise<number> {
  const dataDir = tempDir('sf-thread-checkpoint-');
  const store = openStore({ dataDir });
  await migrate(store);
  await store.close();
  const file = path.join(dataDir, SQLITE_FILE);
  const thread = startWriteThread({
    file,
    network: { allowPrivateNetworks: false },
    logLevel: 'silent',
    textReplies: true,
    checkpointerFellBack,
    restartGate: restartGate(),
  });
  try {
    for (let index = 0; index < writes; index += 1) {
      const call = {
        operationId: 'createStore',
        input: { path: {}, query: {}, body: { name: `Loja ${index}`, currency: 'BRL' }, storeId: '' },
        idempotencyKey: undefined,
      } as unknown as OperationCall;
      await thread.run(call);
    }
    return statSync(`${file}-wal`).size;
  } finally {
    await thread.stop();
  }
}

describe('the write thread when the checkpointer has failed', () => {
  it('checkpoints in its own commits again, at SQLite’s threshold: the WAL stops growing', async () => {
    // A WAL frame is a page (4 KiB) and its 24-byte header; SQLite's threshold is 1,000 frames.
    const frameBytes = 4096 + 24;
    const writes = 2_000;
    const unchecked = await walBytesAfter(writes, new Promise<void>(() => {}));
    const checked = await walBytesAfter(writes, Promise.resolve());
    // Nobody checkpoints: every frame of every write stays (about two per write).
    expect(unchecked).toBeGreaterThan(3_000 * frameBytes);
    // Checkpointed at the threshold, the WAL starts over and never holds much more than it.
    expect(checked).toBeLessThan(1_100 * frameBytes);
  });
});
