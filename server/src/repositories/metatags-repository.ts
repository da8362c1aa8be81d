import { type Kysely, type Selectable, sql } from 'kysely';
import type { components } from '../../../generated/openapi.ts';
import type { Database, MetatagsTable } from '../db/schema.ts';
import { flag, flagColumn, json, jsonColumn } from './columns.ts';
import { containsPattern, newestFirstPage, type PageRequest } from './pagination.ts';

type Schemas = components['schemas'];
export type Metatag = Schemas['Metatag'];

export interface MetatagFilters {
  active?: boolean | undefined;
  placement?: Metatag['placement'] | undefined;
  search?: string | undefined;
}

function toRow(metatag: Metatag): Selectable<MetatagsTable> {
  return {
    id: metatag.id,
    store_id: metatag.storeId,
    name: metatag.name,
    content: metatag.content,
    placement: metatag.placement,
    pages: jsonColumn(metatag.pages),
    active: flagColumn(metatag.active),
    created_at: metatag.createdAt,
    updated_at: metatag.updatedAt,
  };
}

function toMetatag(row: Selectable<MetatagsTable>): Metatag {
  return {
    id: row.id,
    storeId: row.store_id,
    name: row.name,
    content: row.content,
    placement: row.placement as Metatag['placement'],
    pages: json(row.pages),
    active: flag(row.active),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function metatagsRepository(db: Kysely<Database>) {
  return {
    async insert(metatag: Metatag): Promise<void> {
      await db.insertInto('metatags').values(toRow(metatag)).execute();
    },

    async find(storeId: string, id: string): Promise<Metatag | undefined> {
      const row = await db
        .selectFrom('metatags')
        .selectAll()
        .where('store_id', '=', storeId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row && toMetatag(row);
    },

    async replace(metatag: Metatag): Promise<void> {
      const { id, store_id, created_at: _created, ...changes } = toRow(metatag);
      await db.updateTable('metatags').set(changes).where('store_id', '=', store_id).where('id', '=', id).execute();
    },

    async delete(storeId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom('metatags')
        .where('store_id', '=', storeId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async list(storeId: string, filters: MetatagFilters, request: PageRequest) {
      let query = db.selectFrom('metatags').where('store_id', '=', storeId);
      if (filters.active !== undefined) query = query.where('active', '=', flagColumn(filters.active));
      if (filters.placement) query = query.where('placement', '=', filters.placement);
      if (filters.search) query = query.where(sql`lower(name)`, 'like', containsPattern(filters.search));
      const { rows, pagination: page } = await newestFirstPage(query, request);
      return { metatags: rows.map(toMetatag), page };
    },
  };
}

export type MetatagsRepository = ReturnType<typeof metatagsRepository>;
