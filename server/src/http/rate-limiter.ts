import { sql } from 'kysely';
import type { Store } from '../db/database.ts';

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
  const resetSeconds = Math.max(1, Math.ceil(windowStart + windowSeconds - nowMs / 1000));
  return { allowed: hits <= max, limit: max, remaining: Math.max(0, max - hits), resetSeconds, windowSeconds };
}

/**
 * Fixed windows aligned to the clock: once a window is full, waiting `resetSeconds` always lands in a fresh one.
 * In memory for the embedded store (one process owns it).
 */
export function memoryRateLimiter(window: Window, now: () => number = Date.now): RateLimiter {
  const buckets = new Map<string, { windowStart: number; hits: number }>();
  return {
    async hit(bucket) {
      const nowMs = now();
      const windowStart = Math.floor(nowMs / 1000 / window.windowSeconds) * window.windowSeconds;
      let entry = buckets.get(bucket);
      if (!entry || entry.windowStart !== windowStart) {
        if (buckets.size > 10_000) {
          for (const [key, value] of buckets) if (value.windowStart !== windowStart) buckets.delete(key);
        }
        entry = { windowStart, hits: 0 };
        buckets.set(bucket, entry);
      }
      entry.hits += 1;
      return decide(window, windowStart, entry.hits, nowMs);
    },
  };
}

/** The same windows kept in the shared database, so every instance on one PostgreSQL counts together. */
export function sqlRateLimiter(store: Store, window: Window, now: () => number = Date.now): RateLimiter {
  return {
    async hit(bucket) {
      const nowMs = now();
      const windowStart = Math.floor(nowMs / 1000 / window.windowSeconds) * window.windowSeconds;
      const result = await sql<{ hits: number; window_start: number }>`
        INSERT INTO rate_limits (bucket, window_start, hits) VALUES (${bucket}, ${windowStart}, 1)
        ON CONFLICT (bucket) DO UPDATE SET
          hits = CASE WHEN rate_limits.window_start = excluded.window_start THEN rate_limits.hits + 1 ELSE 1 END,
          window_start = excluded.window_start
        RETURNING hits, window_start`.execute(store.db);
      const row = result.rows[0];
      return decide(window, Number(row?.window_start ?? windowStart), Number(row?.hits ?? 1), nowMs);
    },
  };
}
