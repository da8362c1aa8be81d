import type { Kysely } from 'kysely';
import type { components, operations } from '../../../../generated/openapi.ts';
import { flag, json } from '../../db/column-codecs.ts';
import { filtered, storeTable } from '../../db/store-table.ts';
import type { Database } from '../index.ts';

export type Metatag = components['schemas']['Metatag'];
type ListMetatagsQuery = NonNullable<operations['listMetatags']['parameters']['query']>;

export function metatagsRepository(db: Kysely<Database>) {
  const metatags = storeTable(db, 'metatags', { pages: json<Metatag['pages']>(), active: flag });
  return {
    createMetatag: metatags.insert,
    getMetatagById: metatags.find,
    updateMetatag: metatags.replace,
    deleteMetatag: metatags.delete,
    async listMetatags(storeId: string, query: ListMetatagsQuery) {
      const { records, pagination } = await metatags.page(storeId, query, (rows) =>
        filtered(
          rows,
          { active: query.active, placement: query.placement },
          { text: query.search, searchIn: ['name'] },
        ),
      );
      return { metatags: records, pagination };
    },
  };
}
