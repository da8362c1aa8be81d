import { Webhook } from 'standardwebhooks';
import type { webhooks } from '../../generated/openapi-wire.ts';

export { WebhookVerificationError } from 'standardwebhooks';

/** Every event a webhook can subscribe to (the contract's `webhooks`). */
export type WebhookEventName = keyof webhooks;

type DeliveryBody<Operation> = Operation extends { requestBody: { content: { 'application/json': infer Body } } }
  ? Body
  : never;

/**
 * The body a webhook receives for event `E`: the contract's delivery payload for it, with `type` narrowed to `E`,
 * so a union of events can be told apart by `type`.
 */
export type WebhookEvent<E extends WebhookEventName = WebhookEventName> = {
  [N in E]: {
    [K in keyof DeliveryBody<webhooks[N]['post']>]: K extends 'type' ? N : DeliveryBody<webhooks[N]['post']>[K];
  };
}[E];

/** Incoming headers as fetch (`Headers`) or Node's `http` (`IncomingHttpHeaders`) hand them over. */
export type IncomingHeaders = Headers | Record<string, string | string[] | undefined>;

function standardHeaders(headers: IncomingHeaders): Record<string, string> {
  const get = (name: string): string => {
    if (headers instanceof Headers) return headers.get(name) ?? '';
    const value = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
    return Array.isArray(value) ? value.join(' ') : (value ?? '');
  };
  return {
    'webhook-id': get('webhook-id'),
    'webhook-timestamp': get('webhook-timestamp'),
    'webhook-signature': get('webhook-signature'),
  };
}

/**
 * Checks a delivery as Standard Webhooks prescribes (signature over `{id}.{timestamp}.{body}` with the `whsec_`
 * secret, timestamp within 5 minutes) and returns its typed payload. `body` must be the raw body exactly as
 * received, not re-serialized JSON. Throws `WebhookVerificationError` when the delivery is not authentic.
 */
export function verifyWebhook(body: string | Uint8Array, headers: IncomingHeaders, secret: string): WebhookEvent {
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  return new Webhook(secret).verify(text, standardHeaders(headers)) as WebhookEvent;
}

/** A new webhook secret in the contract's form: `whsec_` and the base64 of 32 random bytes. */
export function newWebhookSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return `whsec_${btoa(String.fromCharCode(...bytes))}`;
}
