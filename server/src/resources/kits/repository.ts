import type { Kysely } from 'kysely';
import type { components, operations } from '../../../../generated/openapi.ts';
import { json, money } from '../../db/column-codecs.ts';
import { filtered, storeTable } from '../../db/store-table.ts';
import type { Database } from '../index.ts';

export type Kit = components['schemas']['Kit'];
type ListKitsQuery = NonNullable<operations['listKits']['parameters']['query']>;

export function kitsRepository(db: Kysely<Database>) {
  const kits = storeTable(db, 'kits', { price: money, items: json<Kit['items']>() });
  return {
    createKit: kits.insert,
    getKitById: kits.find,
    updateKit: kits.replace,
    deleteKit: kits.delete,
    async listKits(storeId: string, query: ListKitsQuery) {
      const { records, pagination } = await kits.page(
        storeId,
        query,
        (rows) => filtered(rows, { status: query.status }, { text: query.search, searchIn: ['name'] }),
        'asc',
      );
      return { kits: records, pagination };
    },
  };
}
