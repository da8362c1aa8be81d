import type { AutomationRun } from '../resources/automations/runs-repository.ts';
import type { Repositories } from '../resources/index.ts';
import { ACTION_CHANNELS, type Step } from './automation-chain.ts';
import { now } from './clock.ts';
import { newId } from './new-id.ts';

/** `{{path.to.value}}` placeholders filled from `context`; unknown ones are left as written. */
export function render(text: string, context: Record<string, Record<string, string | null>>): string {
  return text.replace(/\{\{\s*([a-z_]+)\.([a-z_]+)\s*\}\}/gi, (whole, group: string, key: string) => {
    const value = context[group]?.[key];
    return typeof value === 'string' ? value : whole;
  });
}

export interface RunnerOptions {
  repositories: Pick<Repositories, 'automationRuns' | 'templates'>;
  /** Real milliseconds per minute of a delay step: 60000 in production, tiny in tests (AUTOMATION_MINUTE_MS). */
  minuteMs: number;
}

/**
 * Runs a claimed automation run from its stored `nextStep` along the main chain (steps[0], then `nextId`): an
 * action "sends" its message by writing it to the run's outbox together with the step the run goes on from, so a
 * run resumed after a crash never sends a message twice; a delay stores the resume time and returns (the worker
 * picks the run up again then). A run that cannot send (its template was deleted meanwhile) ends `failed` with
 * the reason; earlier messages stay sent. Returns how the run was left.
 */
export async function continueRun(
  run: AutomationRun,
  { repositories, minuteMs }: RunnerOptions,
): Promise<'waiting' | 'completed' | 'failed'> {
  const { automationRuns, templates } = repositories;
  const byId = new Map(run.steps.flatMap((step, at) => (step.id === undefined ? [] : [[step.id, at] as const])));
  const nextOf = (step: Step) => (typeof step.nextId === 'string' ? (byId.get(step.nextId) ?? null) : null);

  async function message(step: Extract<Step, { type: 'action' }>, position: number) {
    const channel = ACTION_CHANNELS[step.name];
    const context = {
      order: { id: run.orderId },
      event: { id: run.eventId, name: run.eventName },
      store: { id: run.storeId },
    };
    let subject: string | null = null;
    let content = step.data.message;
    const templateId = step.data.template_id ?? null;
    if (templateId !== null) {
      const template = await templates.getTemplateById(run.storeId, templateId);
      if (!template || template.channel !== channel)
        throw new Error(`template ${templateId} not found for channel ${channel}`);
      subject = template.subject;
      content = (channel === 'email' ? (template.body ?? template.html) : template.message) ?? undefined;
    }
    if (content === undefined) throw new Error(`step ${step.id ?? position} has no message`);
    return {
      id: newId(),
      storeId: run.storeId,
      runId: run.id,
      position,
      stepId: step.id ?? '',
      operation: step.name,
      channel,
      templateId,
      subject: subject === null ? null : render(subject, context),
      content: render(content, context),
      createdAt: now(),
    };
  }

  let current = run.nextStep;
  let sent = run.sent;
  // The chain was checked for loops when saved; the budget only guards a run against a stored cycle.
  let budget = run.steps.length;
  try {
    while (current !== null && budget-- > 0) {
      const step = run.steps[current];
      if (!step) break;
      const next = nextOf(step);
      if (step.type === 'delay') {
        await automationRuns.suspendRun(run.id, next, new Date(Date.now() + step.minutes * minuteMs).toISOString());
        return 'waiting';
      }
      await automationRuns.sendMessage(await message(step, sent), next);
      sent += 1;
      current = next;
    }
    await automationRuns.finishRun(run.id, 'completed', null, now());
    return 'completed';
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    await automationRuns.finishRun(run.id, 'failed', reason, now());
    return 'failed';
  }
}
