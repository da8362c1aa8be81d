import type { Kysely } from 'kysely';
import type { Engine } from '../db/database.ts';
import type { LegacyTables } from '../db/schema.ts';
import { legacyHandlers } from '../handlers/index.ts';
import type { ApiKeyRecord } from '../repositories/credentials-repository.ts';
import { createLegacyRepositories } from '../repositories/index.ts';
import { categoryHandlers } from './categories/handlers.ts';
import { categoriesRepository } from './categories/repository.ts';
import type { CategoryTables } from './categories/table.ts';
import { giftHandlers } from './gifts/handlers.ts';
import { giftsRepository } from './gifts/repository.ts';
import type { GiftTables } from './gifts/table.ts';
import { kitHandlers } from './kits/handlers.ts';
import { kitsRepository } from './kits/repository.ts';
import type { KitTables } from './kits/table.ts';
import { metatagHandlers } from './metatags/handlers.ts';
import { metatagsRepository } from './metatags/repository.ts';
import type { MetatagTables } from './metatags/table.ts';
import type { Handlers } from './operation.ts';
import { orderBumpHandlers } from './order-bumps/handlers.ts';
import { orderBumpsRepository } from './order-bumps/repository.ts';
import type { OrderBumpTables } from './order-bumps/table.ts';
import { productHandlers } from './products/handlers.ts';
import { productsRepository } from './products/repository.ts';
import type { ProductTables } from './products/table.ts';
import { upsellHandlers } from './upsells/handlers.ts';
import { upsellsRepository } from './upsells/repository.ts';
import type { UpsellTables } from './upsells/table.ts';

/** Every table of the store: each resource declares its own in `<resource>/table.ts`. */
export interface Database
  extends LegacyTables,
    ProductTables,
    CategoryTables,
    KitTables,
    GiftTables,
    UpsellTables,
    OrderBumpTables,
    MetatagTables {}

/**
 * One repository per resource, all on the given handle: the pool, or a transaction (so that a change, its events
 * and its idempotent reply can be written together). Only repositories touch the database.
 */
export function createRepositories(
  db: Kysely<Database>,
  engine: Engine,
  rememberedKeys = new Map<string, ApiKeyRecord>(),
) {
  return {
    ...createLegacyRepositories(db, engine, rememberedKeys),
    products: productsRepository(db),
    categories: categoriesRepository(db),
    metatags: metatagsRepository(db),
    orderBumps: orderBumpsRepository(db),
    upsells: upsellsRepository(db),
    gifts: giftsRepository(db),
    kits: kitsRepository(db),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;

/** Every operation of the contract, by operationId. A missing one fails the type check and start-up. */
export const handlers: Handlers = {
  ...legacyHandlers,
  ...productHandlers,
  ...categoryHandlers,
  ...metatagHandlers,
  ...orderBumpHandlers,
  ...upsellHandlers,
  ...giftHandlers,
  ...kitHandlers,
};
