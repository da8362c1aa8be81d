import { contractCount } from '../contract.ts';

/** Failures count for this long: the contract's `info` › `x-failed-auth-window` (see its Authentication section). */
export const FAILED_AUTH_WINDOW_SECONDS = contractCount('#/info/x-failed-auth-window');

/** Failures an address may have in the window before 429 unless `AUTH_FAILURE_LIMIT` says: `x-failed-auth-limit`. */
export const FAILED_AUTH_LIMIT_DEFAULT = contractCount('#/info/x-failed-auth-limit');

export interface FailedAuthThrottle {
  /** Whole seconds until `address` may try again, or undefined while it is under the limit. */
  blockedFor(address: string): number | undefined;
  recordFailure(address: string): void;
  readonly limit: number;
}

/**
 * Counts failed authentications per client address over the last `FAILED_AUTH_WINDOW_SECONDS` (a sliding log
 * of at most `limit` times per address), in memory; on PostgreSQL the other instances' failures reach it as they
 * announce them (`shared-failed-auth-throttle.ts`). A success does not reset the count, so one valid key cannot
 * launder guesses for another.
 */
export function failedAuthThrottle(limit: number, now: () => number = Date.now): FailedAuthThrottle {
  const windowMs = FAILED_AUTH_WINDOW_SECONDS * 1000;
  const failures = new Map<string, number[]>();
  /** The address's failures still inside the window (dropping the rest). */
  const recent = (address: string, nowMs: number): number[] => {
    const times = (failures.get(address) ?? []).filter((at) => at > nowMs - windowMs);
    if (times.length === 0) failures.delete(address);
    else failures.set(address, times);
    return times;
  };
  return {
    limit,
    blockedFor(address) {
      const nowMs = now();
      const times = recent(address, nowMs);
      const oldest = times[0];
      if (times.length < limit || oldest === undefined) return undefined;
      return Math.max(1, Math.ceil((oldest + windowMs - nowMs) / 1000));
    },
    recordFailure(address) {
      const nowMs = now();
      if (failures.size > 10_000) for (const key of failures.keys()) recent(key, nowMs);
      const times = recent(address, nowMs);
      times.push(nowMs);
      if (times.length > limit) times.shift();
      failures.set(address, times);
    },
  };
}
