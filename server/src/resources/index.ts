import type { Kysely } from 'kysely';
import type { OperationId } from '../contract.ts';
import type { Engine } from '../db/database.ts';
import { type IdempotencyTables, idempotencyRepository } from '../http/idempotency-store.ts';
import type { RateLimitTables } from '../http/rate-limiter.ts';
import { abandonedCartHandlers } from './abandoned-carts/handlers.ts';
import { abandonedCartsRepository } from './abandoned-carts/repository.ts';
import type { AbandonedCartTables } from './abandoned-carts/table.ts';
import { automationHandlers } from './automations/handlers.ts';
import { automationsRepository } from './automations/repository.ts';
import { automationRunsRepository } from './automations/runs-repository.ts';
import type { AutomationTables } from './automations/table.ts';
import { builtOnFirstUse } from './built-on-first-use.ts';
import { categoryHandlers } from './categories/handlers.ts';
import { categoriesRepository } from './categories/repository.ts';
import type { CategoryTables } from './categories/table.ts';
import { couponHandlers } from './coupons/handlers.ts';
import { couponsRepository } from './coupons/repository.ts';
import type { CouponTables } from './coupons/table.ts';
import { credentialHandlers } from './credentials/handlers.ts';
import { credentialsRepository } from './credentials/repository.ts';
import type { CredentialTables } from './credentials/table.ts';
import { customerHandlers } from './customers/handlers.ts';
import { customersRepository } from './customers/repository.ts';
import type { CustomerTables } from './customers/table.ts';
import { discountRangeHandlers } from './discount-ranges/handlers.ts';
import { discountRangesRepository } from './discount-ranges/repository.ts';
import type { DiscountRangeTables } from './discount-ranges/table.ts';
import { giftHandlers } from './gifts/handlers.ts';
import { giftsRepository } from './gifts/repository.ts';
import type { GiftTables } from './gifts/table.ts';
import { kitHandlers } from './kits/handlers.ts';
import { kitsRepository } from './kits/repository.ts';
import type { KitTables } from './kits/table.ts';
import { leadHandlers } from './leads/handlers.ts';
import { leadsRepository } from './leads/repository.ts';
import type { LeadTables } from './leads/table.ts';
import { metatagHandlers } from './metatags/handlers.ts';
import { metatagsRepository } from './metatags/repository.ts';
import type { MetatagTables } from './metatags/table.ts';
import type { Handlers } from './operation.ts';
import { orderBumpHandlers } from './order-bumps/handlers.ts';
import { orderBumpsRepository } from './order-bumps/repository.ts';
import type { OrderBumpTables } from './order-bumps/table.ts';
import { orderHandlers } from './orders/handlers.ts';
import { ordersRepository } from './orders/repository.ts';
import type { OrderTables } from './orders/table.ts';
import { trackingEventsRepository } from './orders/tracking-events-repository.ts';
import { paymentDiscountHandlers } from './payment-discounts/handlers.ts';
import { paymentDiscountsRepository } from './payment-discounts/repository.ts';
import type { PaymentDiscountTables } from './payment-discounts/table.ts';
import { checkoutHandlers } from './payment-links/handlers.ts';
import { paymentLinksRepository } from './payment-links/repository.ts';
import type { PaymentLinkTables } from './payment-links/table.ts';
import { productHandlers } from './products/handlers.ts';
import { productsRepository } from './products/repository.ts';
import type { ProductTables } from './products/table.ts';
import { variantHandlers } from './products/variant-handlers.ts';
import { storeHandlers } from './stores/handlers.ts';
import { storesRepository } from './stores/repository.ts';
import type { StoreTables } from './stores/table.ts';
import { templateHandlers } from './templates/handlers.ts';
import { templatesRepository } from './templates/repository.ts';
import type { TemplateTables } from './templates/table.ts';
import { upsellHandlers } from './upsells/handlers.ts';
import { upsellsRepository } from './upsells/repository.ts';
import type { UpsellTables } from './upsells/table.ts';
import { webhookDeliveriesRepository } from './webhooks/deliveries-repository.ts';
import { webhookHandlers } from './webhooks/handlers.ts';
import { webhooksRepository } from './webhooks/repository.ts';
import type { WebhookDeliveryTables, WebhookTables } from './webhooks/table.ts';

/**
 * Every table of the store: each resource declares its own in `<resource>/table.ts`; the request pipeline's
 * idempotency keys and rate-limit windows are declared next to their only users in `http/`.
 */
export interface Database
  extends RateLimitTables,
    IdempotencyTables,
    ProductTables,
    CategoryTables,
    KitTables,
    GiftTables,
    UpsellTables,
    OrderBumpTables,
    MetatagTables,
    PaymentDiscountTables,
    CouponTables,
    DiscountRangeTables,
    TemplateTables,
    CustomerTables,
    OrderTables,
    LeadTables,
    AbandonedCartTables,
    PaymentLinkTables,
    StoreTables,
    CredentialTables,
    WebhookTables,
    WebhookDeliveryTables,
    AutomationTables {}

/**
 * How long a verified API key is believed without reading it again. A revoke through this process takes effect
 * at once; on PostgreSQL, where several instances may share the store, one through another instance as soon as
 * its announcement arrives (`credentials/key-revocations.ts`), and this lifetime bounds a revoke written by other
 * means (see the README). The embedded store belongs to one process, so its lifetime only bounds memory churn.
 */
const REMEMBER_KEYS_MS: Record<Engine, number> = { sqlite: 60_000, postgres: 5_000 };

interface Handle {
  db: Kysely<Database>;
  engine: Engine;
}

const repositoriesOn = builtOnFirstUse({
  idempotency: ({ db, engine }: Handle) => idempotencyRepository(db, engine),
  products: ({ db }: Handle) => productsRepository(db),
  categories: ({ db }: Handle) => categoriesRepository(db),
  metatags: ({ db }: Handle) => metatagsRepository(db),
  orderBumps: ({ db }: Handle) => orderBumpsRepository(db),
  upsells: ({ db }: Handle) => upsellsRepository(db),
  gifts: ({ db }: Handle) => giftsRepository(db),
  kits: ({ db }: Handle) => kitsRepository(db),
  paymentDiscounts: ({ db }: Handle) => paymentDiscountsRepository(db),
  coupons: ({ db }: Handle) => couponsRepository(db),
  discountRanges: ({ db }: Handle) => discountRangesRepository(db),
  templates: ({ db }: Handle) => templatesRepository(db),
  customers: ({ db }: Handle) => customersRepository(db),
  orders: ({ db }: Handle) => ordersRepository(db),
  trackingEvents: ({ db }: Handle) => trackingEventsRepository(db),
  leads: ({ db }: Handle) => leadsRepository(db),
  abandonedCarts: ({ db }: Handle) => abandonedCartsRepository(db),
  paymentLinks: ({ db }: Handle) => paymentLinksRepository(db),
  stores: ({ db }: Handle) => storesRepository(db),
  credentials: ({ db, engine }: Handle) =>
    credentialsRepository(db, {
      rememberKeysMs: REMEMBER_KEYS_MS[engine],
      announceRevokes: engine === 'postgres',
    }),
  webhooks: ({ db, engine }: Handle) => webhooksRepository(db, engine),
  webhookDeliveries: ({ db, engine }: Handle) => webhookDeliveriesRepository(db, engine),
  automations: ({ db }: Handle) => automationsRepository(db),
  automationRuns: ({ db, engine }: Handle) => automationRunsRepository(db, engine),
});

/**
 * One repository per resource, all on the given handle: the pool, or a transaction (so that a change, its events
 * and its idempotent reply can be written together). Only repositories touch the database. Each is built the
 * first time it is used.
 */
export function createRepositories(db: Kysely<Database>, engine: Engine) {
  return repositoriesOn({ db, engine });
}

export type Repositories = ReturnType<typeof createRepositories>;

/**
 * The reads whose reply depends on nothing but the request and the stored data: no clock, no randomness, nothing
 * kept in memory. Their replies may be sent again while the store has not changed (`http/reply-cache.ts`). A read
 * joins once its handler and the repository calls under it have been read for that; the reads by id partners
 * repeat most come first.
 */
export const REUSABLE_REPLIES: ReadonlySet<OperationId> = new Set<OperationId>([
  'getProductById',
  'getCategoryById',
  'getCustomerById',
  'getOrderById',
  'getWebhookById',
  'getAutomationById',
]);

/** Every operation of the contract, by operationId. A missing one fails the type check and start-up. */
export const handlers: Handlers = {
  ...productHandlers,
  ...categoryHandlers,
  ...metatagHandlers,
  ...orderBumpHandlers,
  ...upsellHandlers,
  ...giftHandlers,
  ...kitHandlers,
  ...paymentDiscountHandlers,
  ...couponHandlers,
  ...discountRangeHandlers,
  ...templateHandlers,
  ...customerHandlers,
  ...orderHandlers,
  ...leadHandlers,
  ...abandonedCartHandlers,
  ...checkoutHandlers,
  ...storeHandlers,
  ...credentialHandlers,
  ...variantHandlers,
  ...webhookHandlers,
  ...automationHandlers,
};
