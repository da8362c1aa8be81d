import { type Kysely, sql } from 'kysely';
import type { components, operations } from '../../../../generated/openapi.ts';
import { json } from '../../db/column-codecs.ts';
import { containsPattern, storeTable } from '../../db/store-table.ts';
import type { Database } from '../index.ts';

export type Lead = components['schemas']['Lead'];
type ListLeadsQuery = NonNullable<operations['listLeads']['parameters']['query']>;

export function leadsRepository(db: Kysely<Database>) {
  const leads = storeTable(db, 'leads', { tags: json<string[]>() });
  return {
    createLead: leads.insert,
    getLeadById: leads.find,
    listLeads: (storeId: string, query: ListLeadsQuery) =>
      leads.page(
        storeId,
        query,
        (rows) => {
          let filtered = rows;
          if (query.source) filtered = filtered.where('source', '=', query.source);
          const { search } = query;
          if (search) {
            const pattern = containsPattern(search);
            filtered = filtered.where((eb) =>
              eb.or([eb(sql`lower(name)`, 'like', pattern), eb(sql`lower(email)`, 'like', pattern)]),
            );
          }
          return filtered;
        },
        'asc',
      ),
  };
}
