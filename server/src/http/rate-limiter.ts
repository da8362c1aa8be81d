import { sql } from 'kysely';
import type { Store } from '../db/database.ts';

/** `rate_limits`, as server/migrations/001_core.sql creates it: each bucket's current window (`sqlRateLimiter`). */
export interface RateLimitsTable {
  bucket: string;
  window_start: number;
  hits: number;
}

export interface RateLimitTables {
  rate_limits: RateLimitsTable;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the current window ends (at least 1). */
  resetSeconds: number;
  windowSeconds: number;
}

export interface RateLimiter {
  hit(bucket: string): Promise<RateLimitDecision>;
}

interface Window {
  max: number;
  windowSeconds: number;
}

function decide({ max, windowSeconds }: Window, windowStart: number, hits: number, nowMs: number): RateLimitDecision {
  const resetSeconds = Math.min(windowSeconds, Math.max(1, Math.ceil(windowStart + windowSeconds - nowMs / 1000)));
  return { allowed: hits <= max, limit: max, remaining: Math.max(0, max - hits), resetSeconds, windowSeconds };
}

/**
 * Fixed windows aligned to the clock: once a window is full, waiting `resetSeconds` always lands in a fresh one.
 * A window's count never moves backwards: a request that read the clock before the current window began (or a
 * clock stepped back) is counted in the current window, never restarts an earlier one.
 * In memory for the embedded store (one process owns it).
 */
export function memoryRateLimiter(window: Window, now: () => number = Date.now): RateLimiter {
  const buckets = new Map<string, { windowStart: number; hits: number }>();
  return {
    async hit(bucket) {
      const nowMs = now();
      const windowStart = Math.floor(nowMs / 1000 / window.windowSeconds) * window.windowSeconds;
      let entry = buckets.get(bucket);
      if (!entry || entry.windowStart < windowStart) {
        if (buckets.size > 10_000) {
          for (const [key, value] of buckets) if (value.windowStart !== windowStart) buckets.delete(key);
        }
        entry = { windowStart, hits: 0 };
        buckets.set(bucket, entry);
      }
      entry.hits += 1;
      return decide(window, entry.windowStart, entry.hits, nowMs);
    },
  };
}

/**
 * The same windows kept in the shared database, so every instance on one PostgreSQL counts together. One upsert
 * per request: the row lock orders the instances' hits, and a hit from an earlier window than the row's (an
 * instance's request that read the clock just before the boundary) counts in the row's window instead of
 * restarting the old one, so no window ever admits more than the limit.
 */
export function sqlRateLimiter(store: Store, window: Window, now: () => number = Date.now): RateLimiter {
  return {
    async hit(bucket) {
      const nowMs = now();
      const windowStart = Math.floor(nowMs / 1000 / window.windowSeconds) * window.windowSeconds;
      const result = await sql<{ hits: number; window_start: number }>`
        INSERT INTO rate_limits (bucket, window_start, hits) VALUES (${bucket}, ${windowStart}, 1)
        ON CONFLICT (bucket) DO UPDATE SET
          hits = CASE WHEN excluded.window_start > rate_limits.window_start THEN 1 ELSE rate_limits.hits + 1 END,
          window_start = CASE WHEN excluded.window_start > rate_limits.window_start
            THEN excluded.window_start ELSE rate_limits.window_start END
        RETURNING hits, window_start`.execute(store.db);
      const row = result.rows[0];
      return decide(window, Number(row?.window_start ?? windowStart), Number(row?.hits ?? 1), nowMs);
    },
  };
}
