import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const API_KEY_PREFIX = 'sf_live_';
export const CHECKOUT_KEY_PREFIX = 'sf_checkout_';

/** A new secret: the prefix and 256 random bits in base64url (43 characters). */
export function newSecret(prefix: string): string {
  return prefix + randomBytes(32).toString('base64url');
}

/** Keys are stored only as this hash; the secret itself is shown once, at creation. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
