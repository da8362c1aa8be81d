import type { DatabaseSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';
import { openGate, type RestartGate, restartGate } from './sqlite-restart-gate.ts';

/** How often the WAL is synced, so that the frames committed since are on disk: the most a power cut can lose. */
export const SYNC_INTERVAL_MS = 200;
/**
 * How often the WAL's synced frames are copied into the database file, which is then synced. A copy reads and
 * writes every page changed since the one before: a page changed again meanwhile (an index's leaf, a table's last
 * page) is copied once, so copying every 2 s copies fewer pages than at every sync, and the request and write threads
 * share the two cores with a copy and its sync a tenth as often. Readers look for pages among the frames not yet
 * copied: at most 2 s of them.
 */
export const COPY_INTERVAL_MS = 2_000;
/**
 * WAL frames (of a page each) past which the checkpointer makes the next write start the WAL over (1 GiB). Writes
 * that pause for a copy interval start it over by themselves (the thread has copied every frame); only writes
 * that never pause need the RESTART, which holds every write back for its copy and two syncs, 40–120 ms on the
 * bench's disk. Past 256 MiB that came every 4 s of the bench's creates at 50 connections and was their 99th
 * percentile; past 1 GiB it comes every 20 s or so. The WAL file keeps its largest size, at most about 1 GiB, and
 * the first open after a crash reads the frames written since it last started over (about 1.2 s a GiB here).
 */
export const RESTART_AFTER_FRAMES = 262_144;
/** SQLite's own threshold (pages in the WAL), run by each connection that writes: the checkpointer's fallback. */
const AUTOCHECKPOINT_PAGES = 1000;

/** A connection that writes leaves checkpoints to the checkpointer's thread (SQLite's own threshold off). */
export function leaveCheckpointsToThread(database: DatabaseSync): void {
  database.exec('PRAGMA wal_autocheckpoint = 0');
}

/** A connection that writes checkpoints inside its commits again, at SQLite's own threshold. */
export function checkpointOnCommit(database: DatabaseSync): void {
  database.exec(`PRAGMA wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
}

export interface Checkpointer {
  /** Settles when the thread has failed and `database` checkpoints itself again (other connections should too). */
  fellBack: Promise<void>;
  /** Closed while the thread's RESTART holds the write lock: the write thread waits at it (sqlite-restart-gate.ts). */
  gate: RestartGate;
  stop(): Promise<void>;
}

/**
 * Checkpoints the embedded store's WAL on a thread of its own instead of inside the commit that crosses SQLite's
 * threshold: that commit copied a thousand pages into the database file and waited for two fsyncs, with every
 * request of the process waiting behind it. Its sync of the WAL also bounds what a power cut can lose to the last
 * sync interval (SQLite alone syncs only at that threshold, which a quiet store may not reach for hours). Past
 * `restartAfterFrames` it also makes the next write start the WAL over, which under writes that never pause SQLite
 * would not do: the WAL grew by about 90 MB a second under the bench's creates. Should the thread fail, `database`
 * checkpoints itself again as before.
 */
export function startCheckpointer(
  database: DatabaseSync,
  file: string,
  {
    syncIntervalMs = SYNC_INTERVAL_MS,
    copyIntervalMs = COPY_INTERVAL_MS,
    restartAfterFrames = RESTART_AFTER_FRAMES,
  } = {},
): Checkpointer {
  const gate = restartGate();
  const worker = new Worker(new URL('./sqlite-checkpoint-thread.ts', import.meta.url), {
    workerData: { file, syncIntervalMs, copyIntervalMs, restartAfterFrames, gate },
  });
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  leaveCheckpointsToThread(database);
  let stopping = false;
  let announceFallBack = () => {};
  const fellBack = new Promise<void>((resolve) => {
    announceFallBack = resolve;
  });
  const fallBack = () => {
    // A thread gone mid-RESTART leaves nothing to wait for.
    openGate(gate);
    if (stopping || !database.isOpen) return;
    checkpointOnCommit(database);
    announceFallBack();
  };
  worker.once('error', fallBack);
  worker.once('exit', fallBack);
  worker.unref();
  return {
    fellBack,
    gate,
    async stop() {
      stopping = true;
      // Referenced again while it closes: otherwise the process could end before the store has closed.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
