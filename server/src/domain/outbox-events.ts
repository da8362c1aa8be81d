import type { Repositories } from '../resources/index.ts';
import { startAutomations, triggerOf } from './automation-triggers.ts';
import { now } from './clock.ts';
import type { DomainEvents } from './events.ts';
import { newId } from './new-id.ts';
import { isWebhookEvent, newMessageId, type WebhookEventName, webhookMessage } from './webhook-message.ts';

type OutboxRepositories = Pick<Repositories, 'webhookDeliveries' | 'automations' | 'automationRuns'>;

/** One delivery per active webhook of the store subscribed to the event, one message id and body for all. */
function enqueueDeliveries(
  repositories: OutboxRepositories,
  event: { storeId: string; name: WebhookEventName; at: string; payload: Record<string, unknown> },
): Promise<void> {
  const { storeId, name, at, payload } = event;
  const messageId = newMessageId();
  const body = webhookMessage(messageId, name, at, storeId, payload);
  return repositories.webhookDeliveries.enqueueForSubscribers({ storeId, event: name, messageId, body, at });
}

/**
 * The transactional outbox: store events written through the repositories of the change that raises them (the
 * pool, or the request's transaction), so a delivery or a run exists exactly when the change does. An event
 * becomes one delivery per active webhook of the store subscribed to it (one message id and body for all) and
 * one run per active automation it triggers; the delivery worker sends and runs them.
 */
export function outboxEvents(repositories: OutboxRepositories): DomainEvents {
  return {
    async emit(storeId, name, payload) {
      const at = now();
      if (isWebhookEvent(name)) await enqueueDeliveries(repositories, { storeId, name, at, payload });
      const trigger = triggerOf(name);
      if (trigger) {
        const order = payload.order as { id?: unknown } | undefined;
        await startAutomations(repositories, storeId, {
          id: newId(),
          name: trigger,
          orderId: typeof order?.id === 'string' ? order.id : null,
          acceptedAt: at,
        });
      }
    },
  };
}
