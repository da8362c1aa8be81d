import { createHash, hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { apiKeyPrefix } from '../contract.ts';

/** An API key starts as the contract's `ApiKeyAuth` › `bearerFormat` says. */
export const API_KEY_PREFIX = apiKeyPrefix;
export const CHECKOUT_KEY_PREFIX = 'sf_checkout_';
/** Standard Webhooks: a webhook secret is `whsec_` and the base64 of its key bytes. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** A new secret: the prefix and 256 random bits in base64url (43 characters). */
export function newSecret(prefix: string): string {
  return prefix + randomBytes(32).toString('base64url');
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
