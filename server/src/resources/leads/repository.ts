import type { Kysely } from 'kysely';
import type { components, operations } from '../../../../generated/openapi.ts';
import { json } from '../../db/column-codecs.ts';
import { filtered, storeTable } from '../../db/store-table.ts';
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
        (rows) => filtered(rows, { source: query.source }, { text: query.search, searchIn: ['name', 'email'] }),
        'asc',
      ),
  };
}
