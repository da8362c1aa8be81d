import { type Reason, reason } from '../../lib/reasons.ts';
import type { WordedValues } from '../../lib/worded.ts';
import { detail, validationError } from './errors.ts';

/**
 * One broken rule of a request, `path` dotted inside the body (`tiers.1.maxValue`). `rule` is the id the contract
 * gives the rule (`x-rule` on the schema or example that states it); rules.test.ts fails when a rule the server
 * checks has no such counterpart, so every 400 a handler raises is one the contract announces.
 */
export interface RuleIssue {
  rule: string;
  path: string;
  reason: string;
}

/**
 * The one way a handler or domain rule reports a broken rule (see RuleIssue): with the contract's reason of the
 * rule (`x-reasons` under the rule's id) given `values`, or with `because`, the reason of one of its cases.
 */
export const ruleViolation = (rule: string, path: string, because: Reason | WordedValues = {}): RuleIssue => ({
  rule,
  path,
  reason: typeof because === 'string' ? because : reason(rule, because),
});

/** The 400 VALIDATION_ERROR naming each issue as a body detail with its rule id (ErrorDetail.rule). */
export const ruleError = (...issues: RuleIssue[]) =>
  validationError(issues.map((issue) => ({ ...detail('body', issue.path, issue.reason), rule: issue.rule })));

/** Throws ruleError when there are issues. */
export function rejectRules(issues: readonly RuleIssue[]): void {
  if (issues.length > 0) throw ruleError(...issues);
}
