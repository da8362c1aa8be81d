import type { Kysely } from 'kysely';
import type { Database } from '../resources/index.ts';
import { idempotencyRepository } from './idempotency-repository.ts';
import { ordersRepository } from './orders-repository.ts';
import { trackingEventsRepository } from './tracking-events-repository.ts';

/** The repositories not yet moved into a resource folder; `resources/index.ts` spreads them in. */
export function createLegacyRepositories(db: Kysely<Database>) {
  return {
    idempotency: idempotencyRepository(db),
    orders: ordersRepository(db),
    trackingEvents: trackingEventsRepository(db),
  };
}
