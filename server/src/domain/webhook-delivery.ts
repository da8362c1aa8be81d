import { randomInt } from 'node:crypto';
import type { Logger } from 'pino';
import type { components } from '../../../generated/openapi.ts';
import type { WebhookRecord, WebhooksRepository } from '../repositories/webhooks-repository.ts';
import type { EventListener } from './event-bus.ts';
import { webhookSignature } from './webhook-signature.ts';

type WebhookEventName = components['schemas']['WebhookEventName'];

/** Every webhook event of the contract (a Record, so the type checker keeps it complete). */
const WEBHOOK_EVENTS: Record<WebhookEventName, true> = {
  ORDER_CREATED: true,
  ORDER_PAID: true,
  ORDER_SHIPPED: true,
  ORDER_DELIVERED: true,
  ORDER_CANCELLED: true,
  ORDER_REFUNDED: true,
  PRODUCT_CREATED: true,
  PRODUCT_UPDATED: true,
  PRODUCT_DELETED: true,
  CART_ABANDONED: true,
  CUSTOMER_CREATED: true,
  LEAD_CREATED: true,
};

export const isWebhookEvent = (name: string): name is WebhookEventName => Object.hasOwn(WEBHOOK_EVENTS, name);

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `msg_` and 24 random alphanumerics (the contract's `webhook-id` pattern). */
export function newMessageId(): string {
  let id = 'msg_';
  for (let i = 0; i < 24; i++) id += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return id;
}

/** Custom headers may not replace these (the contract: not the `webhook-*` nor `content-type` headers). */
const isReservedHeader = (name: string) => /^(content-type|webhook-.*)$/i.test(name);

export interface DeliveryOptions {
  webhooks: Pick<WebhooksRepository, 'subscribers'>;
  /** Back-off before retry n (1-based) is `retryBaseMs * 2^(n-1)`: 1 s, 2 s, 4 s, ... in production. */
  retryBaseMs: number;
  log: Pick<Logger, 'info' | 'warn'>;
  /** Injectable for tests; the global fetch otherwise. */
  fetch?: typeof fetch;
  clock?: () => Date;
}

/**
 * Webhook delivery, as a listener of the app's event bus. For each active webhook of the store subscribed to the
 * event it POSTs `{ id, type, createdAt, storeId, data }` (`data` is the event payload, e.g. `{ order }`) with
 * the webhook's custom headers and the Standard Webhooks headers. A non-2XX answer, a timeout (the webhook's
 * `timeout` in ms) or a connection error is retried up to `retryAttempts` times with exponential back-off, keeping
 * the `webhook-id`; each attempt is signed with a fresh `webhook-timestamp`. The listener resolves once every
 * first attempt has finished (so shutdown waits for those); retries wait on unref'd timers. Outcomes are logged
 * by webhook id and status only: the secret and the body never reach the log.
 */
export function webhookDelivery({
  webhooks,
  retryBaseMs,
  log,
  fetch: send = fetch,
  clock = () => new Date(),
}: DeliveryOptions) {
  async function attempt(webhook: WebhookRecord, id: string, body: string): Promise<boolean> {
    const timestamp = Math.floor(clock().getTime() / 1000);
    const headers = new Headers();
    for (const [name, value] of Object.entries(webhook.headers ?? {})) {
      if (!isReservedHeader(name)) headers.set(name, value);
    }
    headers.set('content-type', 'application/json');
    headers.set('webhook-id', id);
    headers.set('webhook-timestamp', String(timestamp));
    if (webhook.secret !== null)
      headers.set('webhook-signature', webhookSignature(webhook.secret, id, timestamp, body));
    try {
      const response = await send(webhook.url, {
        method: 'POST',
        headers,
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(webhook.timeout),
      });
      await response.body?.cancel();
      return response.status >= 200 && response.status < 300;
    } catch {
      return false;
    }
  }

  /** Attempt `n` (0 = first); on failure schedules the next one while retries remain. */
  async function deliver(webhook: WebhookRecord, id: string, body: string, n: number): Promise<void> {
    if (await attempt(webhook, id, body)) {
      log.info({ webhookId: webhook.id, messageId: id, attempt: n + 1 }, 'webhook delivered');
      return;
    }
    if (n >= webhook.retryAttempts) {
      log.warn({ webhookId: webhook.id, messageId: id, attempts: n + 1 }, 'webhook delivery dropped');
      return;
    }
    const timer = setTimeout(
      () => {
        deliver(webhook, id, body, n + 1).catch(() => undefined);
      },
      retryBaseMs * 2 ** n,
    );
    timer.unref();
  }

  const listener: EventListener = async (storeId, name, payload) => {
    if (!isWebhookEvent(name)) return;
    const subscribers = await webhooks.subscribers(storeId, name);
    if (subscribers.length === 0) return;
    const id = newMessageId();
    const body = JSON.stringify({ id, type: name, createdAt: clock().toISOString(), storeId, data: payload });
    await Promise.all(subscribers.map((webhook) => deliver(webhook, id, body, 0)));
  };

  return { listener, deliver };
}
