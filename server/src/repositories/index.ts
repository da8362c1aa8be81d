import type { Kysely } from 'kysely';
import type { Database } from '../resources/index.ts';
import { automationRunsRepository } from './automation-runs-repository.ts';
import { automationsRepository } from './automations-repository.ts';
import { giftsRepository } from './gifts-repository.ts';
import { idempotencyRepository } from './idempotency-repository.ts';
import { kitsRepository } from './kits-repository.ts';
import { metatagsRepository } from './metatags-repository.ts';
import { orderBumpsRepository } from './order-bumps-repository.ts';
import { ordersRepository } from './orders-repository.ts';
import { trackingEventsRepository } from './tracking-events-repository.ts';
import { upsellsRepository } from './upsells-repository.ts';
import { webhooksRepository } from './webhooks-repository.ts';

/** The repositories not yet moved into a resource folder; `resources/index.ts` spreads them in. */
export function createLegacyRepositories(db: Kysely<Database>) {
  return {
    idempotency: idempotencyRepository(db),
    kits: kitsRepository(db),
    gifts: giftsRepository(db),
    upsells: upsellsRepository(db),
    orderBumps: orderBumpsRepository(db),
    orders: ordersRepository(db),
    trackingEvents: trackingEventsRepository(db),
    webhooks: webhooksRepository(db),
    automations: automationsRepository(db),
    automationRuns: automationRunsRepository(db),
    metatags: metatagsRepository(db),
  };
}
