import { type Kysely, type Selectable, sql } from 'kysely';
import type { components } from '../../../generated/openapi.ts';
import type { Database, LeadsTable } from '../db/schema.ts';
import { json, jsonColumn } from './columns.ts';
import { containsPattern, newestFirstPage, type PageRequest } from './pagination.ts';

export type Lead = components['schemas']['Lead'];

export interface LeadFilters {
  search?: string | undefined;
  source?: string | undefined;
}

function toLead(row: Selectable<LeadsTable>): Lead {
  return {
    id: row.id,
    storeId: row.store_id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    source: row.source,
    tags: json(row.tags),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function leadsRepository(db: Kysely<Database>) {
  return {
    async insert(lead: Lead): Promise<void> {
      await db
        .insertInto('leads')
        .values({
          id: lead.id,
          store_id: lead.storeId,
          name: lead.name,
          email: lead.email,
          phone: lead.phone,
          source: lead.source,
          tags: jsonColumn(lead.tags),
          created_at: lead.createdAt,
          updated_at: lead.updatedAt,
        })
        .execute();
    },

    async find(storeId: string, id: string): Promise<Lead | undefined> {
      const row = await db
        .selectFrom('leads')
        .selectAll()
        .where('store_id', '=', storeId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row && toLead(row);
    },

    async list(storeId: string, filters: LeadFilters, request: PageRequest) {
      let query = db.selectFrom('leads').where('store_id', '=', storeId);
      if (filters.source) query = query.where('source', '=', filters.source);
      if (filters.search) {
        const pattern = containsPattern(filters.search);
        query = query.where((eb) =>
          eb.or([eb(sql`lower(name)`, 'like', pattern), eb(sql`lower(email)`, 'like', pattern)]),
        );
      }
      const { rows, pagination: page } = await newestFirstPage(query, request, 'asc');
      return { leads: rows.map(toLead), page };
    },
  };
}

export type LeadsRepository = ReturnType<typeof leadsRepository>;
