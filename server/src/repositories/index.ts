import type { Kysely } from 'kysely';
import type { Database } from '../resources/index.ts';
import { automationRunsRepository } from './automation-runs-repository.ts';
import { automationsRepository } from './automations-repository.ts';
import { idempotencyRepository } from './idempotency-repository.ts';
import { ordersRepository } from './orders-repository.ts';
import { trackingEventsRepository } from './tracking-events-repository.ts';
import { webhooksRepository } from './webhooks-repository.ts';

/** The repositories not yet moved into a resource folder; `resources/index.ts` spreads them in. */
export function createLegacyRepositories(db: Kysely<Database>) {
  return {
    idempotency: idempotencyRepository(db),
    orders: ordersRepository(db),
    trackingEvents: trackingEventsRepository(db),
    webhooks: webhooksRepository(db),
    automations: automationsRepository(db),
    automationRuns: automationRunsRepository(db),
  };
}
