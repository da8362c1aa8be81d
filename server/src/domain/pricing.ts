// Money arithmetic in whole cents, so totals are exact: 19.9 + 0.1 is 20, never 19.999999999999996.

export type DiscountType = 'PERCENT' | 'FIXED';

/** A money number (at most two decimals) as integer cents. */
export const toCents = (amount: number): number => Math.round(amount * 100);
export const fromCents = (cents: number): number => cents / 100;

/** The sum of `price × quantity` over the lines, in cents: 79.9 × 2 + 19.9 is 179.7, not 179.70000000000002. */
export const lineTotal = (lines: readonly { price: number; quantity: number }[]): number =>
  fromCents(lines.reduce((sum, line) => sum + toCents(line.price) * line.quantity, 0));

/** `cents × percent / 100`, rounded half up to a whole cent, computed on integers (percent has ≤ 2 decimals). */
export function percentOf(cents: number, percent: number): number {
  const scaled = cents * Math.round(percent * 100);
  const whole = Math.floor(scaled / 10_000);
  return scaled - whole * 10_000 >= 5_000 ? whole + 1 : whole;
}

/** What a PERCENT or FIXED discount takes off `cents`, never more than `cents`. */
export function discountCents(cents: number, type: DiscountType, amount: number): number {
  const off = type === 'PERCENT' ? percentOf(cents, amount) : toCents(amount);
  return Math.min(cents, Math.max(0, off));
}

/** `price` minus the discount, rounded to cents and never below 0. */
export function discountedPrice(price: number, type: DiscountType, amount: number): number {
  const cents = toCents(price);
  return fromCents(cents - discountCents(cents, type, amount));
}
