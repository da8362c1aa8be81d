/** SQLite's SQLITE_BUSY, and its extended codes (SQLITE_BUSY_SNAPSHOT …) by their low byte. */
const SQLITE_BUSY = 5;

/** Attempts of one write transaction before its SQLITE_BUSY reaches the error handler (a 500). */
const ATTEMPTS = 5;

/** True for "database is locked": another connection held the lock SQLite needed, and waiting could not help. */
export function isSqliteBusy(error: unknown): boolean {
  const candidate = error as { code?: unknown; errcode?: unknown } | undefined;
  return (
    candidate?.code === 'ERR_SQLITE_ERROR' &&
    typeof candidate.errcode === 'number' &&
    (candidate.errcode & 0xff) === SQLITE_BUSY
  );
}

/**
 * Runs an embedded-store transaction again when SQLite refuses it with SQLITE_BUSY. The busy timeout waits out a
 * lock held by another connection, but not always: SQLite refuses at once where waiting could deadlock (a
 * transaction that has read and then writes while another connection holds the write lock; since every transaction
 * takes the lock as it begins, `sqlite-adapter.ts`, that one no longer arises), and while the checkpoint thread
 * started the WAL over, one or two creates in every 25,000 under sustained load answered 500 "database is locked"
 * after about 80 ms (before that change). The retry stays for whatever refusal is left. The refused transaction has
 * been rolled back whole, so running it again from the start is safe: nothing of the first attempt was kept.
 */
export async function retryingWhenBusy<T>(transaction: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await transaction();
    } catch (error) {
      if (attempt >= ATTEMPTS || !isSqliteBusy(error)) throw error;
    }
  }
}
