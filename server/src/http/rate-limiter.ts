import { sql } from 'kysely';
import { contractCount } from '../contract.ts';
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

/** A key's window unless `RATE_LIMIT_MAX` / `RATE_LIMIT_WINDOW_SECONDS` say: `x-rate-limit-max`, `x-rate-limit-window`. */
export const RATE_LIMIT_DEFAULT: Window = {
  max: contractCount('#/info/x-rate-limit-max'),
  windowSeconds: contractCount('#/info/x-rate-limit-window'),
};

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

/** Permits one instance reserves in one statement at most: a fiftieth of the limit, between 1 and 100. */
export const leaseCap = (max: number) => Math.min(100, Math.max(1, Math.floor(max / 50)));

/** Permits of one bucket this instance holds: global hit numbers `next`..`last` of the window starting `windowStart`. */
interface Lease {
  windowStart: number;
  next: number;
  last: number;
  size: number;
}

/**
 * The same windows kept in the shared database, so every instance on one PostgreSQL counts together. Each hit
 * has a global number in its window; a request is admitted when its number is within the limit, so no window
 * ever admits more than the limit, whichever instance answers. Numbers are reserved in leases, not one upsert
 * per request: the first lease of a bucket in a window is one number, each next one twice the last, up to
 * `leaseCap(max)`; requests then take numbers from the lease in memory. Once a lease reaches the limit, the
 * window is full for good (its count never moves backwards) and the instance refuses without asking again.
 * What this gives up: numbers an instance leased and did not use before its window ended are admitted by no
 * one, so several instances together may admit up to `leaseCap(max) - 1` fewer per instance in a window (never
 * more); one instance alone admits exactly the limit. A hit from an earlier window than the row's (an instance's
 * request that read the clock just before the boundary) counts in the row's window instead of restarting it.
 */
export function sqlRateLimiter(store: Store, window: Window, now: () => number = Date.now): RateLimiter {
  const cap = leaseCap(window.max);
  const leases = new Map<string, Lease>();
  const reserving = new Map<string, Promise<void>>();

  async function reserve(bucket: string, windowStart: number, size: number): Promise<void> {
    const result = await sql<{ hits: number; window_start: number }>`
      INSERT INTO rate_limits (bucket, window_start, hits) VALUES (${bucket}, ${windowStart}, ${size})
      ON CONFLICT (bucket) DO UPDATE SET
        hits = CASE WHEN excluded.window_start > rate_limits.window_start
          THEN excluded.hits ELSE rate_limits.hits + excluded.hits END,
        window_start = CASE WHEN excluded.window_start > rate_limits.window_start
          THEN excluded.window_start ELSE rate_limits.window_start END
      RETURNING hits, window_start`.execute(store.db);
    const hits = Number(result.rows[0]?.hits ?? size);
    const start = Number(result.rows[0]?.window_start ?? windowStart);
    if (leases.size > 10_000) {
      for (const [key, lease] of leases) if (lease.windowStart < start) leases.delete(key);
    }
    leases.set(bucket, { windowStart: start, next: hits - size + 1, last: hits, size });
  }

  return {
    async hit(bucket) {
      const nowMs = now();
      const windowStart = Math.floor(nowMs / 1000 / window.windowSeconds) * window.windowSeconds;
      for (;;) {
        const lease = leases.get(bucket);
        const current = lease && lease.windowStart >= windowStart ? lease : undefined;
        if (current && current.next <= current.last) {
          const number = current.next;
          current.next += 1;
          return decide(window, current.windowStart, number, nowMs);
        }
        if (current && current.last >= window.max) return decide(window, current.windowStart, current.last + 1, nowMs);
        // One reservation per bucket at a time: concurrent requests wait for it and take from the new lease.
        const pending = reserving.get(bucket);
        if (pending) {
          await pending;
          continue;
        }
        const size = current ? Math.min(current.size * 2, cap) : 1;
        const reservation = reserve(bucket, windowStart, size).finally(() => reserving.delete(bucket));
        reserving.set(bucket, reservation);
        await reservation;
      }
    },
  };
}
