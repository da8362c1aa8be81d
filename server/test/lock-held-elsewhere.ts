import { Worker } from 'node:worker_threads';

/**
 * Another thread holds the embedded store's write lock for `ms` (as the checkpoint thread does to start the WAL
 * over, or the write thread during a write): resolves once it holds it, with the moment it lets go.
 */
export async function lockHeldElsewhere(file: string, ms: number): Promise<{ released: Promise<unknown> }> {
  const holder = new Worker(
    `const { DatabaseSync } = require('node:sqlite');
    const { parentPort, workerData } = require('node:worker_threads');
    const database = new DatabaseSync(workerData.file);
    database.exec('BEGIN IMMEDIATE');
    parentPort.postMessage('held');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.ms);
    database.exec('ROLLBACK');
    database.close();`,
    { eval: true, workerData: { file, ms } },
  );
  const released = new Promise((resolve) => holder.once('exit', resolve));
  await new Promise((resolve) => holder.once('message', resolve));
  return { released };
}
