import type { Kysely } from 'kysely';
import type { components, operations } from '../../../../generated/openapi.ts';
import { flag, money } from '../../db/column-codecs.ts';
import { storeTable } from '../../db/store-table.ts';
import type { Database } from '../index.ts';

export type Gift = components['schemas']['Gift'];
type ListGiftsQuery = NonNullable<operations['listGifts']['parameters']['query']>;

export function giftsRepository(db: Kysely<Database>) {
  const gifts = storeTable(db, 'gifts', { active: flag, min_cart_total: money });
  return {
    ...gifts.operations('createGift', 'getGiftById', 'updateGift', 'deleteGift'),
    listGifts: gifts.list('gifts', (q: ListGiftsQuery) => ({ active: q.active }), { searchIn: ['name'], order: 'asc' }),
  };
}
