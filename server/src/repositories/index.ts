import type { Kysely } from 'kysely';
import type { Engine } from '../db/database.ts';
import type { Database } from '../resources/index.ts';
import { abandonedCartsRepository } from './abandoned-carts-repository.ts';
import { couponsRepository } from './coupons-repository.ts';
import { credentialsRepository } from './credentials-repository.ts';
import { customersRepository } from './customers-repository.ts';
import { discountRangesRepository } from './discount-ranges-repository.ts';
import { giftsRepository } from './gifts-repository.ts';
import { idempotencyRepository } from './idempotency-repository.ts';
import { kitsRepository } from './kits-repository.ts';
import { leadsRepository } from './leads-repository.ts';
import { metatagsRepository } from './metatags-repository.ts';
import { orderBumpsRepository } from './order-bumps-repository.ts';
import { ordersRepository } from './orders-repository.ts';
import { paymentDiscountsRepository } from './payment-discounts-repository.ts';
import { paymentLinksRepository } from './payment-links-repository.ts';
import { storesRepository } from './stores-repository.ts';
import { templatesRepository } from './templates-repository.ts';
import { trackingEventsRepository } from './tracking-events-repository.ts';
import { upsellsRepository } from './upsells-repository.ts';

/** The repositories not yet moved into a resource folder; `resources/index.ts` spreads them in. */
export function createLegacyRepositories(db: Kysely<Database>, engine: Engine) {
  return {
    stores: storesRepository(db),
    credentials: credentialsRepository(db, { rememberKeys: engine === 'sqlite' }),
    idempotency: idempotencyRepository(db),
    kits: kitsRepository(db),
    gifts: giftsRepository(db),
    upsells: upsellsRepository(db),
    orderBumps: orderBumpsRepository(db),
    coupons: couponsRepository(db),
    discountRanges: discountRangesRepository(db),
    paymentDiscounts: paymentDiscountsRepository(db),
    paymentLinks: paymentLinksRepository(db),
    orders: ordersRepository(db),
    trackingEvents: trackingEventsRepository(db),
    customers: customersRepository(db),
    leads: leadsRepository(db),
    abandonedCarts: abandonedCartsRepository(db),
    templates: templatesRepository(db),
    metatags: metatagsRepository(db),
  };
}
