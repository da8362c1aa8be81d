import { type Kysely, sql } from 'kysely';
import type { components, operations } from '../../../../generated/openapi.ts';
import { flag, json, money } from '../../db/column-codecs.ts';
import { containsPattern, storeTable } from '../../db/store-table.ts';
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
      const { search } = query;
      const { records, pagination } = await upsells.page(
        storeId,
        query,
        (rows) => {
          let filtered = rows;
          if (query.active !== undefined) filtered = filtered.where('active', '=', flag.toColumn(query.active));
          if (search) {
            const pattern = containsPattern(search);
            filtered = filtered.where((eb) =>
              eb.or([eb(sql`lower(name)`, 'like', pattern), eb(sql`lower(title)`, 'like', pattern)]),
            );
          }
          return filtered;
        },
        'asc',
      );
      return { upsells: records, pagination };
    },
  };
}
