import type { Kysely } from 'kysely';
import type { components } from '../../../../generated/openapi.ts';
import { compiledOnce } from '../../db/compiled-once.ts';
import type { Database } from '../index.ts';

export type StoreRecord = components['schemas']['Store'];

/** Every request to a store reads it: compiled once. */
const storeById = compiledOnce((db: Kysely<Database>) => db.selectFrom('stores').selectAll().where('id', '=', ''));

/**
 * Stores read so far, by id. A store never changes once created (the contract has neither an update nor a delete
 * of a store), so what one read found stays true for the life of the process, on every instance; an id not found
 * is not remembered (the store may be created next).
 */
const knownStores = new Map<string, StoreRecord>();
const KNOWN_STORES_MAX = 10_000;

export function storesRepository(db: Kysely<Database>) {
  return {
    async createStore(store: StoreRecord): Promise<StoreRecord> {
      await db
        .insertInto('stores')
        .values({ id: store.id, name: store.name, currency: store.currency, created_at: store.createdAt })
        .execute();
      return store;
    },

    async find(id: string): Promise<StoreRecord | undefined> {
      const known = knownStores.get(id);
      if (known) return known;
      const [row] = await storeById(db, [id]);
      if (!row) return undefined;
      const store = { id: row.id, name: row.name, currency: row.currency, createdAt: row.created_at };
      if (knownStores.size >= KNOWN_STORES_MAX) knownStores.clear();
      knownStores.set(id, store);
      return store;
    },

    /** Ids of those given that are stores. */
    async existing(ids: string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await db.selectFrom('stores').select('id').where('id', 'in', ids).execute();
      return new Set(rows.map((row) => row.id));
    },

    /** The first store created (the demo store of an embedded sandbox), if any. */
    async oldest(): Promise<StoreRecord | undefined> {
      const row = await db
        .selectFrom('stores')
        .selectAll()
        .orderBy('created_at')
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      return row && { id: row.id, name: row.name, currency: row.currency, createdAt: row.created_at };
    },

    async count(): Promise<number> {
      const row = await db
        .selectFrom('stores')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
  };
}

export type StoresRepository = ReturnType<typeof storesRepository>;
