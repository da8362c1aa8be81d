// The checks derived from the contract for every operation, as a table of rules in the order they run: nothing
// here names an operation, so a new one in openapi.yaml is covered as it is.
import type { Operation } from './contract.ts';
import { checkRules, type Rule } from './rule.ts';
import { noCredentials, scopeDenied, storeIdNotUuid, storeNotAuthorized, wrongCredentials } from './rules/auth.ts';
import { inputs } from './rules/inputs.ts';
import { documentedShapes } from './rules/shape.ts';
import { duplicateEntry, unknownPathId, unknownReference } from './rules/state.ts';
import { validRequest } from './rules/valid.ts';
import type { Session } from './session.ts';

export const RULES: Rule[] = [
  noCredentials,
  wrongCredentials,
  storeIdNotUuid,
  storeNotAuthorized,
  scopeDenied,
  validRequest,
  inputs,
  unknownPathId,
  duplicateEntry,
  unknownReference,
  // last: only the responses no other rule received
  documentedShapes,
];

/** Every contract-derived check of one operation. */
export function checkOperation(s: Session, op: Operation): Promise<void> {
  return checkRules(RULES, s, op);
}
