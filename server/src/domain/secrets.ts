import { createHash, hash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { KeyForm } from '../contract.ts';

/** Standard Webhooks: a webhook secret is `whsec_` and the base64 of its key bytes. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** Random base64url text of `count` characters (43: 256 bits and a little more). */
const randomText = (count: number) =>
  randomBytes(Math.ceil((count * 3) / 4))
    .toString('base64url')
    .slice(0, count);

/**
 * A new key of the form the contract gives its scheme (`apiKeyForm`, `checkoutKeyForm`): each `<N base64url
 * characters>` of the format filled with random characters. A format this cannot fill stops the mint.
 */
export function newKey({ format, pattern }: KeyForm): string {
  const key = format.replace(/<(\d+) base64url[^>]*>/g, (_placeholder, count: string) => randomText(Number(count)));
  if (!pattern.test(key)) throw new Error(`cannot mint a key of the form ${format}`);
  return key;
}

/** A new webhook secret in the Standard Webhooks form: `whsec_` and the base64 of 256 random bits. */
export function newWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + randomBytes(32).toString('base64');
}

/** Keys are stored only as this hash; the secret itself is shown once, at creation. */
export function hashSecret(secret: string): string {
  // One call, no Hash object: every authenticated request hashes its key.
  return hash('sha256', secret, 'hex');
}

export function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
