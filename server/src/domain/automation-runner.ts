import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { AutomationRun } from '../repositories/automation-runs-repository.ts';
import type { Repositories } from '../resources/index.ts';
import { ACTION_CHANNELS, type Step } from './automation-chain.ts';
import { now } from './clock.ts';
import type { EventListener } from './event-bus.ts';

/** The bus event raiseStoreEvent emits once the runs are recorded; payload `{ runIds: string[] }`. */
export const AUTOMATION_RUNS_STARTED = 'automation.runs.started';

export interface RunnerOptions {
  repositories: Pick<Repositories, 'automationRuns' | 'templates'>;
  /** Real milliseconds per minute of a delay step: 60000 in production, tiny in tests (AUTOMATION_MINUTE_MS). */
  minuteMs: number;
  log: Pick<Logger, 'error' | 'info'>;
}

/** `{{path.to.value}}` placeholders filled from `context`; unknown ones are left as written. */
export function render(text: string, context: Record<string, Record<string, string | null>>): string {
  return text.replace(/\{\{\s*([a-z_]+)\.([a-z_]+)\s*\}\}/gi, (whole, group: string, key: string) => {
    const value = context[group]?.[key];
    return typeof value === 'string' ? value : whole;
  });
}

/**
 * The in-process automation runner. A run walks its main chain (steps[0], then `nextId`): an action "sends"
 * its message by writing it to the outbox; a delay waits `minutes` (scaled by `minuteMs`) on an unref'd timer,
 * so a waiting run never holds the process open nor delays shutdown. The bus listener resolves when the run
 * reaches its first delay (or its end), so `events.settled()` covers the immediate part. A run that cannot
 * send (its template was deleted meanwhile) ends `failed` with the reason; earlier messages stay sent.
 */
export function automationRunner({ repositories, minuteMs, log }: RunnerOptions) {
  const { automationRuns, templates } = repositories;

  async function action(run: AutomationRun, step: Extract<Step, { type: 'action' }>, position: number) {
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
      if (!template || template.channel !== channel) throw new Error(`template ${templateId} não encontrado`);
      subject = template.subject;
      content = (channel === 'email' ? (template.body ?? template.html) : template.message) ?? undefined;
    }
    if (content === undefined) throw new Error(`passo ${step.id ?? position} sem mensagem`);
    await automationRuns.send({
      id: randomUUID(),
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
    });
  }

  /** Runs from step `index`, `sent` messages in; returns at the first delay after scheduling the rest. */
  async function proceed(run: AutomationRun, index: number | undefined, sent: number, seen: Set<number>) {
    const byId = new Map(run.steps.flatMap((step, at) => (step.id === undefined ? [] : [[step.id, at] as const])));
    let current = index;
    let count = sent;
    try {
      while (current !== undefined && !seen.has(current)) {
        seen.add(current);
        const step = run.steps[current];
        if (!step) break;
        const next = typeof step.nextId === 'string' ? byId.get(step.nextId) : undefined;
        if (step.type === 'delay') {
          const resume = next;
          const timer = setTimeout(() => {
            proceed(run, resume, count, seen).catch((error: unknown) => log.error({ err: error }, 'run failed'));
          }, step.minutes * minuteMs);
          timer.unref();
          return;
        }
        await action(run, step, count);
        count += 1;
        current = next;
      }
      await automationRuns.finish(run.storeId, run.id, 'completed', null, now());
      log.info({ runId: run.id, messages: count }, 'automation run completed');
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      await automationRuns.finish(run.storeId, run.id, 'failed', reason, now());
      log.info({ runId: run.id, reason }, 'automation run failed');
    }
  }

  const start = (run: AutomationRun) => proceed(run, run.steps.length > 0 ? 0 : undefined, 0, new Set());

  const listener: EventListener = async (storeId, name, payload) => {
    if (name !== AUTOMATION_RUNS_STARTED || !Array.isArray(payload.runIds)) return;
    for (const runId of payload.runIds) {
      if (typeof runId !== 'string') continue;
      const run = await automationRuns.find(storeId, runId);
      if (run) await start(run);
    }
  };

  return { start, listener };
}
