import { randomInt } from 'node:crypto';
import { type components, webhookEventNameValues } from '../../../generated/openapi.ts';
import { webhookSignature } from './webhook-signature.ts';

export type WebhookEventName = components['schemas']['WebhookEventName'];

/** Every webhook event of the contract (its `WebhookEventName` enum). */
const WEBHOOK_EVENTS: ReadonlySet<string> = new Set(webhookEventNameValues);

export const isWebhookEvent = (name: string): name is WebhookEventName => WEBHOOK_EVENTS.has(name);

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** `msg_` and 24 random alphanumerics (the contract's `webhook-id` pattern). */
export function newMessageId(): string {
  let id = 'msg_';
  for (let i = 0; i < 24; i++) id += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return id;
}

/** The body of a delivery: `{ id, type, createdAt, storeId, data }`, `data` being the event payload. */
export const webhookMessage = (
  id: string,
  type: WebhookEventName,
  createdAt: string,
  storeId: string,
  data: Record<string, unknown>,
): string => JSON.stringify({ id, type, createdAt, storeId, data });

/**
 * A custom header that HTTP cannot carry (a CR, LF or NUL in its value): the contract refuses such a header, but
 * a webhook stored before it did may hold one. The attempt fails with the header's name, never its value.
 */
export class InvalidCustomHeaderError extends Error {
  constructor(headerName: string) {
    super(`custom header ${headerName} is not a valid HTTP header`);
    this.name = 'InvalidCustomHeaderError';
  }
}

/** Custom headers may not replace these (the contract: not the `webhook-*` nor `content-type` headers). */
const isReservedHeader = (name: string) => /^(content-type|webhook-.*)$/i.test(name);

/**
 * The headers of one attempt: the webhook's custom headers, then the Standard Webhooks ones: the message id
 * (the same on every attempt), the attempt's timestamp (seconds) and, when the webhook has a secret, the
 * signature of `{id}.{timestamp}.{body}`.
 */
export function attemptHeaders(
  webhook: { headers: Record<string, string> | null; secret: string | null },
  messageId: string,
  timestamp: number,
  body: string,
): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(webhook.headers ?? {})) {
    if (isReservedHeader(name)) continue;
    try {
      headers.set(name, value);
    } catch {
      throw new InvalidCustomHeaderError(name);
    }
  }
  headers.set('content-type', 'application/json');
  headers.set('webhook-id', messageId);
  headers.set('webhook-timestamp', String(timestamp));
  if (webhook.secret !== null)
    headers.set('webhook-signature', webhookSignature(webhook.secret, messageId, timestamp, body));
  return headers;
}
