import type { Kysely } from 'kysely';
import type { components, operations } from '../../../../generated/openapi.ts';
import { json } from '../../db/column-codecs.ts';
import { storeTable } from '../../db/store-table.ts';
import type { Database } from '../index.ts';

export type Lead = components['schemas']['Lead'];
type ListLeadsQuery = NonNullable<operations['listLeads']['parameters']['query']>;

export function leadsRepository(db: Kysely<Database>) {
  const leads = storeTable(db, 'leads', { tags: json<string[]>() });
  return {
    ...leads.operations('createLead', 'getLeadById'),
    listLeads: leads.list('leads', (q: ListLeadsQuery) => ({ source: q.source }), {
      searchIn: ['name', 'email'],
      order: 'asc',
    }),
  };
}
