import { randomUUID } from 'node:crypto';
import type { AutomationRun } from '../repositories/automation-runs-repository.ts';
import type { Repositories } from '../resources/index.ts';
import { isTriggerEvent } from './automation-chain.ts';
import { AUTOMATION_RUNS_STARTED } from './automation-runner.ts';
import { now } from './clock.ts';
import type { EventListener } from './event-bus.ts';
import type { DomainEvents } from './events.ts';

export interface TriggeredEvent {
  id: string;
  name: string;
  orderId: string | null;
  acceptedAt: string;
}

/**
 * Records one run for each active automation of the store whose `trigger_event` is `name` (a run keeps its
 * own copy of the steps) and hands them to the runner. Returns the run ids.
 */
export async function startAutomations(
  repositories: Pick<Repositories, 'automations' | 'automationRuns'>,
  events: DomainEvents,
  storeId: string,
  event: TriggeredEvent,
): Promise<string[]> {
  const automations = await repositories.automations.triggeredBy(storeId, event.name);
  const runs: AutomationRun[] = automations.map((automation) => ({
    id: randomUUID(),
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
  }));
  if (runs.length === 0) return [];
  await repositories.automationRuns.start(runs);
  const runIds = runs.map((run) => run.id);
  events.emit(storeId, AUTOMATION_RUNS_STARTED, { runIds });
  return runIds;
}

/** `ORDER_PAID` → `order.paid`: the trigger name of a store event, when automations can start on it. */
export function triggerOf(eventName: string): string | undefined {
  const trigger = eventName.toLowerCase().replace('_', '.');
  return isTriggerEvent(trigger) ? trigger : undefined;
}

/**
 * Starts automations on the store's own events (an order paid, a cart abandoned...), as raiseStoreEvent does
 * for the events that happen in the checkout.
 */
export function automationTriggers(
  repositories: Pick<Repositories, 'automations' | 'automationRuns'>,
  events: DomainEvents,
): EventListener {
  return async (storeId, name, payload) => {
    const trigger = triggerOf(name);
    if (!trigger) return;
    const order = payload.order as { id?: unknown } | undefined;
    await startAutomations(repositories, events, storeId, {
      id: randomUUID(),
      name: trigger,
      orderId: typeof order?.id === 'string' ? order.id : null,
      acceptedAt: now(),
    });
  };
}
