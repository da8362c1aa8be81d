import { randomInt } from 'node:crypto';
import { type components, templateChannelValues, triggerEventValues } from '../../../generated/openapi.ts';
import { contractValue, enumTable, isText, ruleBound } from '../contract.ts';
import { type RuleIssue, ruleViolation } from '../rules.ts';

// The rules of an automation the schema cannot state, shared by create, update, validate and add-step.
//
// The chain: steps form a linked list through `nextId`. The *main chain* starts at steps[0] and follows
// `nextId` until a step has none (or null); that is the order a run executes. Steps off the main chain are
// allowed (they can be linked in later) but never run.

type Schemas = components['schemas'];
export type Step = Schemas['Step'];
export type TriggerEvent = Schemas['TriggerEvent'];
export type TemplateChannel = Schemas['TemplateChannel'];
type ActionName = Schemas['ActionStep']['name'];

/** One reason an automation is not valid; `path` is dotted inside the automation, e.g. `steps.1.data.template_id`. */
export type ChainIssue = RuleIssue;

/** Every trigger event of the contract (its `TriggerEvent` enum). */
const TRIGGER_EVENTS: ReadonlySet<string> = new Set(triggerEventValues);

export const isTriggerEvent = (name: string): name is TriggerEvent => TRIGGER_EVENTS.has(name);

const ACTION_NAME = 'ActionStep/properties/name';

/** The actions of the contract (`ActionStep` › `name`'s enum, which `ActionName` is generated from). */
const ACTION_NAMES = contractValue(
  `#/components/schemas/${ACTION_NAME}/enum`,
  (names): names is ActionName[] => Array.isArray(names) && names.every(isText),
  'list of actions',
);

const isChannel = (channel: unknown): channel is TemplateChannel =>
  (templateChannelValues as readonly unknown[]).includes(channel);

/** The channel each action sends on: the contract's `ActionStep` › `name` › `x-channels`. */
export const ACTION_CHANNELS = enumTable(ACTION_NAME, 'x-channels', ACTION_NAMES, isChannel);

/** Each channel's name in a reason: the contract's `TemplateChannel` › `x-labels`. */
const CHANNEL_LABELS = enumTable('TemplateChannel', 'x-labels', templateChannelValues, isText);

/** SMS text limit (section 8): the contract's `template-sms-length` rule (TemplateCreate). */
export const SMS_MAX_LENGTH = ruleBound('template-sms-length', ['then', 'properties', 'message', 'maxLength']);

/** Whether a text is over the SMS limit, counted in characters (code points) as JSON Schema's maxLength counts. */
export const overSmsLimit = (text: string): boolean => [...text].length > SMS_MAX_LENGTH;

/** Finds the store's templates by id; only their channel matters here. */
export type TemplateLookup = (ids: string[]) => Promise<Map<string, { channel: TemplateChannel }>>;

/**
 * Every problem of the automation: the trigger is a known event; step ids are unique; every action has its
 * data (send_email a template_id of an email template of the store; send_sms a message of at most 160
 * characters or an SMS template; send_whatsapp a message or a WhatsApp template); every `nextId` names a step;
 * following `nextId` never loops. An empty list means valid.
 */
export async function checkAutomation(
  automation: { trigger_event: string; steps: readonly Step[] },
  lookupTemplates: TemplateLookup,
): Promise<ChainIssue[]> {
  const issues: ChainIssue[] = [];
  if (!isTriggerEvent(automation.trigger_event)) {
    issues.push(ruleViolation('automation-trigger-known', 'trigger_event', { event: automation.trigger_event }));
  }
  const { steps } = automation;
  const templateIds = steps.flatMap((step) =>
    step.type === 'action' && typeof step.data.template_id === 'string' ? [step.data.template_id] : [],
  );
  const templates = await lookupTemplates(templateIds);

  const indexById = new Map<string, number>();
  steps.forEach((step, index) => {
    if (step.id === undefined) return;
    if (indexById.has(step.id))
      issues.push(ruleViolation('automation-step-id-unique', `steps.${index}.id`, { id: step.id }));
    else indexById.set(step.id, index);
  });

  steps.forEach((step, index) => {
    const at = `steps.${index}`;
    if (step.type === 'delay') {
      if (!Number.isInteger(step.minutes) || step.minutes < 1) {
        issues.push(ruleViolation('automation-delay-minutes', `${at}.minutes`));
      }
    } else {
      issues.push(...checkAction(step, at, templates));
    }
    if (typeof step.nextId === 'string' && !indexById.has(step.nextId)) {
      issues.push(ruleViolation('automation-next-step-exists', `${at}.nextId`, { id: step.nextId }));
    }
  });

  issues.push(...cycles(steps, indexById));
  return issues;
}

function checkAction(
  step: Schemas['ActionStep'],
  at: string,
  templates: Map<string, { channel: TemplateChannel }>,
): ChainIssue[] {
  const channel = ACTION_CHANNELS[step.name];
  if (!channel) return [ruleViolation('automation-action-known', `${at}.name`, { name: String(step.name) })];
  const { template_id: templateId, message } = step.data;
  const issues: ChainIssue[] = [];
  if (templateId !== undefined) {
    if (templates.get(templateId)?.channel !== channel) {
      issues.push(
        ruleViolation('automation-template-exists', `${at}.data.template_id`, { channel: CHANNEL_LABELS[channel] }),
      );
    }
  }
  if (channel === 'email') {
    if (templateId === undefined) {
      issues.push(ruleViolation('automation-email-template-required', `${at}.data.template_id`));
    }
    return issues;
  }
  if (message === undefined && templateId === undefined) {
    issues.push(ruleViolation('automation-message-or-template', `${at}.data.message`, { action: step.name }));
  }
  if (channel === 'sms' && typeof message === 'string' && overSmsLimit(message)) {
    issues.push(ruleViolation('automation-sms-length', `${at}.data.message`, { max: SMS_MAX_LENGTH }));
  }
  return issues;
}

/** One issue per loop, on the `nextId` that closes it. */
function cycles(steps: readonly Step[], indexById: Map<string, number>): ChainIssue[] {
  const issues: ChainIssue[] = [];
  const state = new Map<number, 'walking' | 'done'>();
  for (let start = 0; start < steps.length; start++) {
    const walked: number[] = [];
    let index: number | undefined = start;
    while (index !== undefined && !state.has(index)) {
      state.set(index, 'walking');
      walked.push(index);
      const next: string | null | undefined = steps[index]?.nextId;
      const target: number | undefined = typeof next === 'string' ? indexById.get(next) : undefined;
      if (target !== undefined && state.get(target) === 'walking') {
        issues.push(ruleViolation('automation-no-cycle', `steps.${index}.nextId`, { id: String(next) }));
        break;
      }
      index = target;
    }
    for (const done of walked) state.set(done, 'done');
  }
  return issues;
}

const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz';

/** A new step id: `step_` and 8 random base36 characters, not among `taken`. */
export function newStepId(taken: ReadonlySet<string>): string {
  for (;;) {
    let id = 'step_';
    for (let i = 0; i < 8; i++) id += BASE36[randomInt(36)];
    if (!taken.has(id)) return id;
  }
}

/** The steps with an id on every step (kept when given, `step_<8 base36>` when not). */
export function withStepIds(steps: readonly Step[]): Step[] {
  const taken = new Set(steps.flatMap((step) => (step.id === undefined ? [] : [step.id])));
  return steps.map((step) => {
    if (step.id !== undefined) return step;
    const id = newStepId(taken);
    taken.add(id);
    return { ...step, id };
  });
}

/** Index of the last step of the main chain (steps[0] → nextId → ...), or -1 when there are no steps. */
export function mainChainEnd(steps: readonly Step[]): number {
  if (steps.length === 0) return -1;
  const indexById = new Map(steps.flatMap((step, index) => (step.id === undefined ? [] : [[step.id, index] as const])));
  const seen = new Set<number>();
  let index = 0;
  for (;;) {
    seen.add(index);
    const next = steps[index]?.nextId;
    const target = typeof next === 'string' ? indexById.get(next) : undefined;
    if (target === undefined || seen.has(target)) return index;
    index = target;
  }
}

/**
 * Inserts `step` (which has an id) into the chain and returns the new steps and the step's index, or undefined
 * when `after` names no step.
 * - With `after`: the new step goes right after that step in the array; it takes over that step's `nextId`
 *   and that step now points at it.
 * - Without: the new step is appended to the array and linked after the last step of the main chain; it ends
 *   the chain (any `nextId` it was sent with is dropped).
 */
export function insertStep(
  steps: readonly Step[],
  step: Step & { id: string },
  after: string | undefined,
): { steps: Step[]; index: number } | undefined {
  const { nextId: _ignored, ...bare } = step;
  if (after !== undefined) {
    const at = steps.findIndex((candidate) => candidate.id === after);
    const anchor = steps[at];
    if (!anchor) return undefined;
    const inserted: Step = typeof anchor.nextId === 'string' ? { ...bare, nextId: anchor.nextId } : (bare as Step);
    const result = [...steps];
    result[at] = { ...anchor, nextId: step.id };
    result.splice(at + 1, 0, inserted);
    return { steps: result, index: at + 1 };
  }
  const end = mainChainEnd(steps);
  const result = [...steps];
  const last = result[end];
  if (last) result[end] = { ...last, nextId: step.id };
  result.push(bare as Step);
  return { steps: result, index: result.length - 1 };
}
