import { createHmac } from 'node:crypto';
import { WEBHOOK_SECRET_PREFIX } from './secrets.ts';

/**
 * The HMAC key of a webhook secret, as Standard Webhooks defines it: the base64 after `whsec_`, decoded. The
 * contract accepts only that form; a secret stored before it did (any other text) keeps its old key, its UTF-8
 * bytes, so receivers set up then still verify.
 */
function signingKey(secret: string): Buffer {
  return secret.startsWith(WEBHOOK_SECRET_PREFIX)
    ? Buffer.from(secret.slice(WEBHOOK_SECRET_PREFIX.length), 'base64')
    : Buffer.from(secret, 'utf8');
}

/**
 * The `webhook-signature` header of one delivery attempt (Standard Webhooks v1):
 * `v1,<base64 HMAC-SHA256(key, "{id}.{timestamp}.{body}")>`, so `new Webhook(secret).verify(...)` of the
 * `standardwebhooks` library accepts it with default settings.
 */
export function webhookSignature(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', signingKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}
