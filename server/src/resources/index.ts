import type { Kysely } from 'kysely';
import type { Engine } from '../db/database.ts';
import type { LegacyTables } from '../db/schema.ts';
import { legacyHandlers } from '../handlers/index.ts';
import { createLegacyRepositories } from '../repositories/index.ts';
import { automationHandlers } from './automations/handlers.ts';
import { automationsRepository } from './automations/repository.ts';
import { automationRunsRepository } from './automations/runs-repository.ts';
import type { AutomationTables } from './automations/table.ts';
import { categoryHandlers } from './categories/handlers.ts';
import { categoriesRepository } from './categories/repository.ts';
import type { CategoryTables } from './categories/table.ts';
import type { Handlers } from './operation.ts';
import { productHandlers } from './products/handlers.ts';
import { productsRepository } from './products/repository.ts';
import type { ProductTables } from './products/table.ts';
import { webhookDeliveriesRepository } from './webhooks/deliveries-repository.ts';
import { webhookHandlers } from './webhooks/handlers.ts';
import { webhooksRepository } from './webhooks/repository.ts';
import type { WebhookDeliveryTables, WebhookTables } from './webhooks/table.ts';

/** Every table of the store: each resource declares its own in `<resource>/table.ts`. */
export interface Database
  extends LegacyTables,
    ProductTables,
    CategoryTables,
    WebhookTables,
    WebhookDeliveryTables,
    AutomationTables {}

/**
 * One repository per resource, all on the given handle: the pool, or a transaction (so that a change, its events
 * and its idempotent reply can be written together). Only repositories touch the database.
 */
export function createRepositories(db: Kysely<Database>, engine: Engine) {
  return {
    ...createLegacyRepositories(db, engine),
    products: productsRepository(db),
    categories: categoriesRepository(db),
    webhooks: webhooksRepository(db),
    webhookDeliveries: webhookDeliveriesRepository(db, engine),
    automations: automationsRepository(db),
    automationRuns: automationRunsRepository(db, engine),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;

/** Every operation of the contract, by operationId. A missing one fails the type check and start-up. */
export const handlers: Handlers = {
  ...legacyHandlers,
  ...productHandlers,
  ...categoryHandlers,
  ...webhookHandlers,
  ...automationHandlers,
};
