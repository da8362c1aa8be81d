import { type Kysely, sql } from 'kysely';
import type { components, operations } from '../../../../generated/openapi.ts';
import { flag, json } from '../../db/column-codecs.ts';
import { containsPattern, storeTable } from '../../db/store-table.ts';
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
      const { records, pagination } = await metatags.page(storeId, query, (rows) => {
        let filtered = rows;
        if (query.active !== undefined) filtered = filtered.where('active', '=', flag.toColumn(query.active));
        if (query.placement) filtered = filtered.where('placement', '=', query.placement);
        if (query.search) filtered = filtered.where(sql`lower(name)`, 'like', containsPattern(query.search));
        return filtered;
      });
      return { metatags: records, pagination };
    },
  };
}
