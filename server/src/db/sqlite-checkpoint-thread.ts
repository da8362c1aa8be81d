// The embedded store's checkpointer (started by sqlite-checkpointer.ts): a thread that syncs the WAL every
// `syncIntervalMs` and, with a connection of its own, moves its frames into the database file and syncs that every
// `copyIntervalMs`.
import { closeSync, fsyncSync, openSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';
import { type RestartGate, withGateClosed } from './sqlite-restart-gate.ts';

/**
 * How long RESTART waits on this thread for a write in progress (writes take well under 1 ms): the write thread's
 * at the gate, the request thread's (the delivery worker's) in SQLite's busy handler.
 */
const RESTART_WAIT_MS = 100;
const { file, syncIntervalMs, copyIntervalMs, restartAfterFrames, gate } = workerData as {
  file: string;
  syncIntervalMs: number;
  copyIntervalMs: number;
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

/**
 * The WAL's frames committed so far made durable, as a checkpoint's own sync of the WAL does before it copies
 * (synchronous = NORMAL syncs nothing at a commit). The file is opened each time: SQLite may have made a new one
 * since (after the last connection closed), and until the first write there is none.
 */
function syncWal(): void {
  let fd: number;
  try {
    fd = openSync(`${file}-wal`, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

const timers = [setInterval(syncWal, syncIntervalMs), setInterval(checkpoint, copyIntervalMs)];

parentPort?.once('message', () => {
  for (const timer of timers) clearInterval(timer);
  passive.get();
  database.close();
  parentPort?.close();
});
