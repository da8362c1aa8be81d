import type { Kysely } from 'kysely';
import type { components, operations } from '../../../../generated/openapi.ts';
import { flag, json, money } from '../../db/column-codecs.ts';
import { storeTable } from '../../db/store-table.ts';
import type { Database } from '../index.ts';

export type AbandonedCart = components['schemas']['AbandonedCart'];
type ListAbandonedCartsQuery = NonNullable<operations['listAbandonedCarts']['parameters']['query']>;

const columns = {
  customer: json<AbandonedCart['customer']>(),
  items: json<AbandonedCart['items']>(),
  subtotal: money,
  recovered: flag,
};

/** The instant a date filter names, as the UTC ISO text `created_at` is compared with. */
const utc = (dateTime: string): string => new Date(dateTime).toISOString();

export function abandonedCartsRepository(db: Kysely<Database>) {
  const carts = storeTable(db, 'abandoned_carts', columns);
  return {
    ...carts.operations('createAbandonedCart', 'getAbandonedCartById'),
    listAbandonedCarts: (storeId: string, query: ListAbandonedCartsQuery) =>
      carts.page(
        storeId,
        query,
        (rows) => {
          let filtered = rows;
          if (query.recovered !== undefined)
            filtered = filtered.where('recovered', '=', flag.toColumn(query.recovered));
          if (query.createdFrom) filtered = filtered.where('created_at', '>=', utc(query.createdFrom));
          if (query.createdTo) filtered = filtered.where('created_at', '<', utc(query.createdTo));
          return filtered;
        },
        'asc',
      ),
  };
}
