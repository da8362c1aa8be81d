// The embedded store's checkpointer (started by sqlite-checkpointer.ts): a connection of its own, on a thread of
// its own, that moves committed WAL frames into the database file and syncs it, every `intervalMs`.
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';

/** How long RESTART waits on this thread for the request thread's write in progress (writes take well under 1 ms). */
const RESTART_WAIT_MS = 100;
const { file, intervalMs, restartAfterFrames } = workerData as {
  file: string;
  intervalMs: number;
  restartAfterFrames: number;
};
const database = new DatabaseSync(file, { timeout: RESTART_WAIT_MS });
// PASSIVE never waits for the request thread's reads or writes: it copies what no reader still needs.
const passive = database.prepare('PRAGMA wal_checkpoint(PASSIVE)');
// SQLite writes the WAL from its start again only when a write begins with every frame copied, which never
// happens while requests keep writing during the copy: the WAL would grow for as long as they do. RESTART copies
// the few frames PASSIVE left, waits here for the request thread's write in progress to end, and holds the next
// write back until it is done (if the wait runs out, it is a PASSIVE that reports `busy`, tried again next time).
const restart = database.prepare('PRAGMA wal_checkpoint(RESTART)');

function checkpoint(): void {
  const { log } = passive.get() as { log: number };
  if (log >= restartAfterFrames) restart.get();
}

const timer = setInterval(checkpoint, intervalMs);

parentPort?.once('message', () => {
  clearInterval(timer);
  passive.get();
  database.close();
  parentPort?.close();
});
