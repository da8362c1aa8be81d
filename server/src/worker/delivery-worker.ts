import type { Logger } from 'pino';
import { continueRun } from '../domain/automation-runner.ts';
import { retryDelayMs } from '../domain/retry-schedule.ts';
import { UnsafeWebhookUrlError, type WebhookSender } from '../domain/ssrf-guard.ts';
import { attemptHeaders, InvalidCustomHeaderError } from '../domain/webhook-message.ts';
import type { Repositories } from '../resources/index.ts';
import type { ClaimedDelivery } from '../resources/webhooks/deliveries-repository.ts';

export interface WorkerOptions {
  repositories: Pick<Repositories, 'webhookDeliveries' | 'automationRuns' | 'templates'>;
  /** Seconds between attempts (WEBHOOK_RETRY_SCHEDULE). */
  retrySchedule: readonly number[];
  /** Real milliseconds a delay step's minute lasts (AUTOMATION_MINUTE_MS). */
  minuteMs: number;
  /** The one function every attempt is sent through. */
  send: WebhookSender;
  log: Pick<Logger, 'info' | 'warn' | 'error'>;
}

/** How often the store is asked for due work, and how much is claimed at once. */
const POLL_MS = 200;
const BATCH = 10;
/** How long a claimed run is left to one instance before another may take it over (a crash mid-run). */
const RUN_LEASE_MS = 60_000;

const isoIn = (ms: number) => new Date(Date.now() + ms).toISOString();

/** Why an attempt got no answer, without anything of the request (URL, headers, secret). */
function reasonOf(error: unknown): string {
  if (error instanceof UnsafeWebhookUrlError || error instanceof InvalidCustomHeaderError) {
    return `refused: ${error.message}`;
  }
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return 'timed out';
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  return typeof cause?.code === 'string' ? `connection failed (${cause.code})` : 'connection failed';
}

/** One attempt of a claimed delivery: signed, sent through `send`, recorded and logged. */
async function attempt(claim: ClaimedDelivery, options: WorkerOptions): Promise<void> {
  const { repositories, retrySchedule, send, log } = options;
  const { delivery, webhook } = claim;
  const started = Date.now();
  let statusCode: number | null = null;
  let error: string | null = null;
  try {
    const headers = attemptHeaders(webhook, delivery.message_id, Math.floor(started / 1000), delivery.payload);
    statusCode = await send({ url: webhook.url, headers, body: delivery.payload, timeoutMs: webhook.timeout });
    if (statusCode < 200 || statusCode > 299) error = `answered ${statusCode}`;
  } catch (failure) {
    error = reasonOf(failure);
  }
  const delivered = error === null;
  await repositories.webhookDeliveries.recordAttempt(claim, {
    attemptedAt: new Date(started).toISOString(),
    statusCode,
    durationMs: Date.now() - started,
    error,
    delivered,
    retryAt: new Date(started + retryDelayMs(retrySchedule, claim.attempt)).toISOString(),
  });
  const fields = { webhookId: webhook.id, deliveryId: delivery.id, attempt: claim.attempt, statusCode };
  if (delivered) log.info(fields, 'webhook delivered');
  else log.warn({ ...fields, error }, 'webhook attempt failed');
}

/**
 * The delivery worker, in the server process: every POLL_MS it claims due webhook deliveries and due automation
 * runs from the store (several instances share the work through the claims) and carries them out. An attempt is
 * signed (Standard Webhooks, a fresh `webhook-timestamp` each time, the same `webhook-id` and body), sent through
 * `send`, recorded (time, status, duration, error) and, when it failed, scheduled again by the retry schedule
 * while the webhook's attempts (1 + `retryAttempts`) last. A claim moves the delivery's next attempt to the
 * schedule's next step (or past the webhook's timeout, if later), so an attempt cut off by a crash is tried
 * again then. `stop` stops claiming and waits for the work in flight, up to a grace; what is left stays stored.
 */
export function deliveryWorker(options: WorkerOptions) {
  const { repositories, retrySchedule, minuteMs, log } = options;
  const { webhookDeliveries, automationRuns } = repositories;
  const inFlight = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let stopping = false;

  function track(work: Promise<void>): void {
    const tracked = work
      .catch((error: unknown) => log.error({ err: error }, 'delivery worker task failed'))
      .finally(() => inFlight.delete(tracked));
    inFlight.add(tracked);
  }

  /** One round: claim what is due and start it; true when a batch came back full (more may be waiting). */
  async function round(): Promise<boolean> {
    const now = new Date().toISOString();
    const deliveries = await webhookDeliveries.claimDueDeliveries(now, BATCH, (attemptNumber, webhook) =>
      isoIn(Math.max(retryDelayMs(retrySchedule, attemptNumber), webhook.timeout + 1000)),
    );
    for (const claim of deliveries) track(attempt(claim, options));
    const runs = await automationRuns.claimDueRuns(now, isoIn(RUN_LEASE_MS), BATCH);
    for (const run of runs) track(continueRun(run, { repositories, minuteMs }).then(() => undefined));
    return deliveries.length === BATCH || runs.length === BATCH;
  }

  function schedule(delayMs: number): void {
    if (stopping) return;
    timer = setTimeout(() => {
      const polling = round().then(
        (more) => schedule(more ? 0 : POLL_MS),
        (error: unknown) => {
          log.error({ err: error }, 'delivery worker could not claim work');
          schedule(POLL_MS);
        },
      );
      track(polling);
    }, delayMs);
  }

  return {
    start(): void {
      stopping = false;
      schedule(0);
    },

    /** Stops claiming; resolves when the work in flight has finished or `graceMs` has passed. */
    async stop(graceMs: number): Promise<void> {
      stopping = true;
      clearTimeout(timer);
      let grace: NodeJS.Timeout | undefined;
      const expired = new Promise<void>((resolve) => {
        grace = setTimeout(resolve, graceMs);
      });
      const drained = (async () => {
        while (inFlight.size > 0) await Promise.all([...inFlight]);
      })();
      await Promise.race([drained, expired]);
      clearTimeout(grace);
    },
  };
}

export type DeliveryWorker = ReturnType<typeof deliveryWorker>;
