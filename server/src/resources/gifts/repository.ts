import type { Kysely } from 'kysely';
import type { components, operations } from '../../../../generated/openapi.ts';
import { flag, money } from '../../db/column-codecs.ts';
import { filtered, storeTable } from '../../db/store-table.ts';
import type { Database } from '../index.ts';

export type Gift = components['schemas']['Gift'];
type ListGiftsQuery = NonNullable<operations['listGifts']['parameters']['query']>;

export function giftsRepository(db: Kysely<Database>) {
  const gifts = storeTable(db, 'gifts', { active: flag, min_cart_total: money });
  return {
    createGift: gifts.insert,
    getGiftById: gifts.find,
    updateGift: gifts.replace,
    deleteGift: gifts.delete,
    async listGifts(storeId: string, query: ListGiftsQuery) {
      const { records, pagination } = await gifts.page(
        storeId,
        query,
        (rows) => filtered(rows, { active: query.active }, { text: query.search, searchIn: ['name'] }),
        'asc',
      );
      return { gifts: records, pagination };
    },
  };
}
