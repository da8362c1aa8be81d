import type { Kysely } from 'kysely';
import type { components } from '../../../../generated/openapi.ts';
import { compiledOnce } from '../../db/compiled-once.ts';
import type { Database } from '../index.ts';

export type StoreRecord = components['schemas']['Store'];

/** Every request to a store reads it: compiled once. */
const storeById = compiledOnce((db: Kysely<Database>) => db.selectFrom('stores').selectAll().where('id', '=', ''));

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
      const [row] = await storeById(db, [id]);
      return row && { id: row.id, name: row.name, currency: row.currency, createdAt: row.created_at };
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
