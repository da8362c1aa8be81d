/**
 * How the checkpointer's RESTART and the write thread take turns at the embedded store's write lock, without
 * SQLite's busy handler between them. That handler sleeps in growing steps (1, 2, 5, 10, 15, 20 ms …): a write
 * that met a RESTART of about 40 ms waited 53 (measured under creates at 50 connections: each wait was a sum of
 * those steps, 18, 33 or 53 ms), and every create in flight waited with it. Here the checkpointer closes the gate,
 * waits for the write thread's transaction in progress to end, and runs its RESTART; the write thread waits at the
 * closed gate before its next transaction begins and goes on the moment it opens.
 *
 * Two 32-bit words in memory both threads share: CLOSED (1 while the checkpointer holds the gate) and WRITING (1
 * while the write thread is in a transaction). Each side sets its own word before it reads the other's, so with
 * `Atomics` (sequentially consistent) at least one of them sees the other and gives way.
 */
export type RestartGate = Int32Array;

const CLOSED = 0;
const WRITING = 1;

/** Longest single wait at a closed gate before looking again: a bound, should a RESTART never report back. */
const RECHECK_MS = 1_000;

export function restartGate(): RestartGate {
  return new Int32Array(new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT));
}

/**
 * Runs `restart` with the gate closed, once the write thread's transaction in progress has ended (waiting at
 * most `writeWaitMs`: past it, SQLite's own wait takes over), and opens the gate when `restart` ends, however it
 * ends.
 */
export function withGateClosed<T>(gate: RestartGate, writeWaitMs: number, restart: () => T): T {
  closeGate(gate);
  try {
    const until = performance.now() + writeWaitMs;
    for (let left = writeWaitMs; Atomics.load(gate, WRITING) === 1 && left > 0; left = until - performance.now()) {
      Atomics.wait(gate, WRITING, 1, left);
    }
    return restart();
  } finally {
    openGate(gate);
  }
}

/** Closes the gate: the write thread waits at its next `beginning` until `openGate`. */
export function closeGate(gate: RestartGate): void {
  Atomics.store(gate, CLOSED, 1);
}

/** Opens the gate and wakes the write thread if it waits at it (also when the checkpointer's thread is gone). */
export function openGate(gate: RestartGate): void {
  Atomics.store(gate, CLOSED, 0);
  Atomics.notify(gate, CLOSED);
}

/**
 * The write thread's side: `beginning` before each transaction begins (it blocks the calling thread while the
 * gate is closed, so only a thread with nothing else to do meanwhile may use it), `ended` once it has committed
 * or rolled back, or failed to begin.
 */
export function gatedTransactions(gate: RestartGate): TransactionHooks {
  return {
    beginning() {
      for (;;) {
        Atomics.store(gate, WRITING, 1);
        if (Atomics.load(gate, CLOSED) === 0) return;
        leave(gate);
        while (Atomics.load(gate, CLOSED) === 1) Atomics.wait(gate, CLOSED, 1, RECHECK_MS);
      }
    },
    ended: () => leave(gate),
  };
}

function leave(gate: RestartGate): void {
  Atomics.store(gate, WRITING, 0);
  Atomics.notify(gate, WRITING);
}

/** Called around each transaction of a connection (sqlite-adapter.ts). */
export interface TransactionHooks {
  beginning(): void;
  ended(): void;
}
