import { contractValue } from '../contract.ts';

const isSchedule = (value: unknown): value is number[] =>
  Array.isArray(value) && value.length > 0 && value.every((step) => Number.isInteger(step) && step >= 0);

/**
 * The webhook retry schedule (WEBHOOK_RETRY_SCHEDULE): seconds to wait after attempt 1, after attempt 2, ...
 * A webhook makes 1 + `retryAttempts` attempts; past the schedule's end its last step repeats. The default is the
 * contract's `Webhook` › `retryAttempts` › `x-retry-schedule` (the one Standard Webhooks suggests: 5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h, 10 h).
 */
export const DEFAULT_RETRY_SCHEDULE: readonly number[] = contractValue(
  '#/components/schemas/Webhook/properties/retryAttempts/x-retry-schedule',
  isSchedule,
  'retry schedule',
);

/** `5,300,1800` → [5, 300, 1800]; undefined unless every step is a whole number of seconds from 0 to 86400. */
export function parseRetrySchedule(text: string): number[] | undefined {
  const steps = text.split(',').map((step) => Number(step.trim()));
  const valid = steps.every((step) => Number.isInteger(step) && step >= 0 && step <= 86_400);
  return valid && steps.length > 0 ? steps : undefined;
}

/** Milliseconds to wait after attempt `attempt` (1-based) before the next one. */
export function retryDelayMs(schedule: readonly number[], attempt: number): number {
  const seconds = schedule[Math.min(attempt, schedule.length) - 1] ?? 0;
  return seconds * 1000;
}
