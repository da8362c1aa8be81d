import type { Store } from '../db/database.ts';
import { categoriesRepository } from './categories-repository.ts';
import { credentialsRepository } from './credentials-repository.ts';
import { idempotencyRepository } from './idempotency-repository.ts';
import { productsRepository } from './products-repository.ts';
import { storesRepository } from './stores-repository.ts';

/** One repository per resource; only these touch the database. */
export function createRepositories(store: Store) {
  const { db } = store;
  return {
    stores: storesRepository(db),
    credentials: credentialsRepository(db),
    idempotency: idempotencyRepository(db),
    products: productsRepository(db),
    categories: categoriesRepository(db),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
