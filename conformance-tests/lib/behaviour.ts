// Behaviour the contract cannot express as a schema, written by hand. Each test names the operation it is
// about, the rule, and what the target must be able to do (its capabilities); it acts on records of its own
// with unique values and reads the new state back through the API.
import { accessBehaviour } from './behaviour-access.ts';
import type { BehaviourTest } from './behaviour-kit.ts';
import { limitBehaviour } from './behaviour-limits.ts';
import { productBehaviour } from './behaviour-products.ts';
import { timestampBehaviour } from './behaviour-timestamps.ts';
import { webhookAndAutomationBehaviour } from './behaviour-webhooks-automations.ts';

export type { BehaviourTest } from './behaviour-kit.ts';

/** In the order they run: the access tests last, as before (they create keys and a second store). */
export const behaviourTests: BehaviourTest[] = [
  ...productBehaviour,
  ...timestampBehaviour,
  ...limitBehaviour,
  ...webhookAndAutomationBehaviour,
  ...accessBehaviour,
];
