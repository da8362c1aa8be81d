// The shape of a contract-derived rule: a name, whether it concerns an operation, and what it checks. A family
// of rules (one per credential, path id or input case) gives its variants and names each one.
import type { Operation } from './contract.ts';
import type { Session } from './session.ts';

interface RuleBase {
  applies(s: Session, op: Operation): boolean;
}

/** A rule checked once per operation it applies to. */
export interface SingleRule extends RuleBase {
  rule: string;
  run(s: Session, op: Operation): Promise<void>;
}

/** A rule checked once per variant; each variant is reported under its own name. */
export interface RuleFamily<V> extends RuleBase {
  rule(variant: V): string;
  variants(s: Session, op: Operation): V[];
  run(s: Session, op: Operation, variant: V, rule: string): Promise<void>;
}

export type Rule = SingleRule | RuleFamily<unknown>;

/** Checks every rule of a table that applies to the operation, in the table's order. */
export async function checkRules(rules: Rule[], s: Session, op: Operation): Promise<void> {
  for (const entry of rules) {
    if (!entry.applies(s, op)) continue;
    if (!('variants' in entry)) {
      await s.check(op.operationId, entry.rule, () => entry.run(s, op));
      continue;
    }
    for (const variant of entry.variants(s, op)) {
      const rule = entry.rule(variant);
      await s.check(op.operationId, rule, () => entry.run(s, op, variant, rule));
    }
  }
}

/** Types a family by its variant (the table holds families of any variant). */
export function family<V>(rules: RuleFamily<V>): Rule {
  return rules;
}
