import type { Kysely } from 'kysely';
import type { Engine } from '../db/database.ts';
import type { Database } from '../resources/index.ts';
import { abandonedCartsRepository } from './abandoned-carts-repository.ts';
import { automationRunsRepository } from './automation-runs-repository.ts';
import { automationsRepository } from './automations-repository.ts';
import { couponsRepository } from './coupons-repository.ts';
import { type ApiKeyRecord, credentialsRepository } from './credentials-repository.ts';
import { customersRepository } from './customers-repository.ts';
import { discountRangesRepository } from './discount-ranges-repository.ts';
import { idempotencyRepository } from './idempotency-repository.ts';
import { leadsRepository } from './leads-repository.ts';
import { ordersRepository } from './orders-repository.ts';
import { paymentDiscountsRepository } from './payment-discounts-repository.ts';
import { paymentLinksRepository } from './payment-links-repository.ts';
import { storesRepository } from './stores-repository.ts';
import { templatesRepository } from './templates-repository.ts';
import { trackingEventsRepository } from './tracking-events-repository.ts';
import { webhooksRepository } from './webhooks-repository.ts';

/**
 * The repositories not yet moved into a resource folder; `resources/index.ts` spreads them in. `rememberedKeys`
 * is the embedded store's memory of API keys, shared by every repository set built on one store.
 */
export function createLegacyRepositories(
  db: Kysely<Database>,
  engine: Engine,
  rememberedKeys = new Map<string, ApiKeyRecord>(),
) {
  return {
    stores: storesRepository(db),
    credentials: credentialsRepository(db, { rememberKeys: engine === 'sqlite', remembered: rememberedKeys }),
    idempotency: idempotencyRepository(db),
    coupons: couponsRepository(db),
    discountRanges: discountRangesRepository(db),
    paymentDiscounts: paymentDiscountsRepository(db),
    paymentLinks: paymentLinksRepository(db),
    orders: ordersRepository(db),
    trackingEvents: trackingEventsRepository(db),
    customers: customersRepository(db),
    leads: leadsRepository(db),
    abandonedCarts: abandonedCartsRepository(db),
    webhooks: webhooksRepository(db),
    automations: automationsRepository(db),
    automationRuns: automationRunsRepository(db),
    templates: templatesRepository(db),
  };
}
