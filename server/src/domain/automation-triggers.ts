import type { AutomationRun } from '../resources/automations/runs-repository.ts';
import type { Repositories } from '../resources/index.ts';
import { isTriggerEvent } from './automation-chain.ts';
import { newId } from './new-id.ts';

export interface TriggeredEvent {
  id: string;
  name: string;
  orderId: string | null;
  acceptedAt: string;
}

/**
 * Records one run, due now, for each active automation of the store whose `trigger_event` is the event's (a run
 * keeps its own copy of the steps); the delivery worker runs them. Returns the run ids.
 */
export async function startAutomations(
  repositories: Pick<Repositories, 'automations' | 'automationRuns'>,
  storeId: string,
  event: TriggeredEvent,
): Promise<string[]> {
  const automations = await repositories.automations.triggeredBy(storeId, event.name);
  const runs: AutomationRun[] = automations.map((automation) => ({
    id: newId(),
    storeId,
    automationId: automation.id,
    eventId: event.id,
    eventName: event.name,
    orderId: event.orderId,
    steps: automation.steps,
    status: 'running',
    error: null,
    createdAt: event.acceptedAt,
    finishedAt: null,
    nextStep: automation.steps.length > 0 ? 0 : null,
    sent: 0,
    resumeAt: event.acceptedAt,
  }));
  await repositories.automationRuns.startRuns(runs);
  return runs.map((run) => run.id);
}

/** `ORDER_PAID` → `order.paid`: the trigger name of a store event, when automations can start on it. */
export function triggerOf(eventName: string): string | undefined {
  const trigger = eventName.toLowerCase().replace('_', '.');
  return isTriggerEvent(trigger) ? trigger : undefined;
}
