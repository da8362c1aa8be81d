import { ruleError, ruleViolation } from '../rules.ts';

// Rules of the offers and pricing resources that need nothing but the record they check.

/** An end that is set must be later than a start that is set (400 naming the end field). */
export function requireWindow(start: string | null, end: string | null, endPath: string, startPath: string): void {
  if (start !== null && end !== null && Date.parse(end) <= Date.parse(start)) {
    throw ruleError(ruleViolation('offer-window-order', endPath, { start: startPath }));
  }
}

/** A PERCENT discount is at most 100 (checked on the resulting record, so an update cannot slip past it). */
export function requirePercentAtMost100(type: string, amount: number, path: string): void {
  if (type === 'PERCENT' && amount > 100) {
    throw ruleError(ruleViolation('percent-at-most-100', path));
  }
}
