import type { Kysely } from 'kysely';
import type { components, operations } from '../../../../generated/openapi.ts';
import { flag, json } from '../../db/column-codecs.ts';
import { storeTable } from '../../db/store-table.ts';
import type { Database } from '../index.ts';

export type Metatag = components['schemas']['Metatag'];
type ListMetatagsQuery = NonNullable<operations['listMetatags']['parameters']['query']>;

export function metatagsRepository(db: Kysely<Database>) {
  const metatags = storeTable(db, 'metatags', { pages: json<Metatag['pages']>(), active: flag });
  return {
    ...metatags.operations('createMetatag', 'getMetatagById', 'updateMetatag', 'deleteMetatag'),
    listMetatags: metatags.list('metatags', (q: ListMetatagsQuery) => ({ active: q.active, placement: q.placement }), {
      searchIn: ['name'],
    }),
  };
}
