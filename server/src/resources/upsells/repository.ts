import type { Kysely } from 'kysely';
import type { components, operations } from '../../../../generated/openapi.ts';
import { flag, json, money } from '../../db/column-codecs.ts';
import { filtered, storeTable } from '../../db/store-table.ts';
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
    createUpsell: upsells.insert,
    getUpsellById: upsells.find,
    updateUpsell: upsells.replace,
    deleteUpsell: upsells.delete,
    /** `search` matches the name or the title. */
    async listUpsells(storeId: string, query: ListUpsellsQuery) {
      const { records, pagination } = await upsells.page(
        storeId,
        query,
        (rows) => filtered(rows, { active: query.active }, { text: query.search, searchIn: ['name', 'title'] }),
        'asc',
      );
      return { upsells: records, pagination };
    },
  };
}
