import type { Kysely } from 'kysely';
import type { components, operations } from '../../../../generated/openapi.ts';
import { flag, json, money } from '../../db/column-codecs.ts';
import { storeTable } from '../../db/store-table.ts';
import type { Database } from '../index.ts';

export type Upsell = components['schemas']['Upsell'];
type ListUpsellsQuery = NonNullable<operations['listUpsells']['parameters']['query']>;

export function upsellsRepository(db: Kysely<Database>) {
  const upsells = storeTable(db, 'upsells', {
    trigger_product_ids: json<string[]>(),
    discount_amount: money,
    active: flag,
  });
  return {
    ...upsells.operations('createUpsell', 'getUpsellById', 'updateUpsell', 'deleteUpsell'),
    /** `search` matches the name or the title. */
    listUpsells: upsells.list('upsells', (q: ListUpsellsQuery) => ({ active: q.active }), {
      searchIn: ['name', 'title'],
      order: 'asc',
    }),
  };
}
