import type { Kysely } from 'kysely';
import type { components, operations } from '../../../../generated/openapi.ts';
import { json, money } from '../../db/column-codecs.ts';
import { storeTable } from '../../db/store-table.ts';
import type { Database } from '../index.ts';

export type Kit = components['schemas']['Kit'];
type ListKitsQuery = NonNullable<operations['listKits']['parameters']['query']>;

export function kitsRepository(db: Kysely<Database>) {
  const kits = storeTable(db, 'kits', { price: money, items: json<Kit['items']>() });
  return {
    ...kits.operations('createKit', 'getKitById', 'updateKit', 'deleteKit'),
    listKits: kits.list('kits', (q: ListKitsQuery) => ({ status: q.status }), { searchIn: ['name'], order: 'asc' }),
  };
}
