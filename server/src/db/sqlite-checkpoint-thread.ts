// The embedded store's checkpointer (started by sqlite-checkpointer.ts): a connection of its own, on a thread of
// its own, that moves committed WAL frames into the database file and syncs it, every `intervalMs`.
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';

const { file, intervalMs } = workerData as { file: string; intervalMs: number };
const database = new DatabaseSync(file);
// PASSIVE never waits for the request thread's reads or writes: it copies what no reader still needs.
const checkpoint = database.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const timer = setInterval(() => checkpoint.get(), intervalMs);

parentPort?.once('message', () => {
  clearInterval(timer);
  checkpoint.get();
  database.close();
  parentPort?.close();
});
