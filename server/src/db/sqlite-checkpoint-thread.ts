// The embedded store's checkpointer (started by sqlite-checkpointer.ts): a connection of its own, on a thread of
// its own, that moves committed WAL frames into the database file and syncs it, every `intervalMs`.
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';
import { type RestartGate, withGateClosed } from './sqlite-restart-gate.ts';

/**
 * How long RESTART waits on this thread for a write in progress (writes take well under 1 ms): the write thread's
 * at the gate, the request thread's (the delivery worker's) in SQLite's busy handler.
 */
const RESTART_WAIT_MS = 100;
const { file, intervalMs, restartAfterFrames, gate } = workerData as {
  file: string;
  intervalMs: number;
  restartAfterFrames: number;
  gate: RestartGate;
};
const database = new DatabaseSync(file, { timeout: RESTART_WAIT_MS });
// PASSIVE never waits for the request thread's reads or writes: it copies what no reader still needs.
const passive = database.prepare('PRAGMA wal_checkpoint(PASSIVE)');
// SQLite writes the WAL from its start again only when a write begins with every frame copied, which never
// happens while requests keep writing during the copy: the WAL would grow for as long as they do. RESTART copies
// the few frames PASSIVE left, waits here for the write in progress to end, and holds the next write back until
// it is done (if the wait runs out, it is a PASSIVE that reports `busy`, tried again next time). It runs with the
// gate closed (sqlite-restart-gate.ts): the write thread waits at it, and goes on the moment the RESTART is done.
const restart = database.prepare('PRAGMA wal_checkpoint(RESTART)');

/**
 * The WAL's frame count when a RESTART last succeeded. The WAL keeps that count until the next write starts it
 * over, so while writes pause there is nothing to restart again: without this the thread closed the gate for a
 * RESTART at every interval until the next write.
 */
let restartedAt: number | undefined;

function checkpoint(): void {
  const { log } = passive.get() as { log: number };
  if (log === restartedAt) return;
  // Any other count: a write has been made since (once it has started the WAL over, a count seen again is new).
  restartedAt = undefined;
  if (log < restartAfterFrames) return;
  const { busy } = withGateClosed(gate, RESTART_WAIT_MS, () => restart.get()) as { busy: number };
  if (busy === 0) restartedAt = log;
}

const timer = setInterval(checkpoint, intervalMs);

parentPort?.once('message', () => {
  clearInterval(timer);
  passive.get();
  database.close();
  parentPort?.close();
});
