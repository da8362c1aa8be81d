import { type Kysely, type Selectable, sql } from 'kysely';
import type { components } from '../../../generated/openapi.ts';
import type { Database, KitsTable } from '../db/schema.ts';
import { json, jsonColumn, money, moneyColumn } from './columns.ts';
import { containsPattern, newestFirstPage, type PageRequest } from './pagination.ts';

export type Kit = components['schemas']['Kit'];

export interface KitFilters {
  status?: Kit['status'] | undefined;
  search?: string | undefined;
}

function toRow(kit: Kit): Selectable<KitsTable> {
  return {
    id: kit.id,
    store_id: kit.storeId,
    name: kit.name,
    description: kit.description,
    status: kit.status,
    price: moneyColumn(kit.price),
    items: jsonColumn(kit.items),
    created_at: kit.createdAt,
    updated_at: kit.updatedAt,
  };
}

function toKit(row: Selectable<KitsTable>): Kit {
  return {
    id: row.id,
    storeId: row.store_id,
    name: row.name,
    description: row.description,
    status: row.status as Kit['status'],
    price: money(row.price),
    items: json(row.items),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function kitsRepository(db: Kysely<Database>) {
  return {
    async insert(kit: Kit): Promise<void> {
      await db.insertInto('kits').values(toRow(kit)).execute();
    },

    async find(storeId: string, id: string): Promise<Kit | undefined> {
      const row = await db
        .selectFrom('kits')
        .selectAll()
        .where('store_id', '=', storeId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row && toKit(row);
    },

    async replace(kit: Kit): Promise<void> {
      const { id, store_id, created_at: _created, ...changes } = toRow(kit);
      await db.updateTable('kits').set(changes).where('store_id', '=', store_id).where('id', '=', id).execute();
    },

    async delete(storeId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom('kits')
        .where('store_id', '=', storeId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async list(storeId: string, filters: KitFilters, request: PageRequest) {
      let query = db.selectFrom('kits').where('store_id', '=', storeId);
      if (filters.status) query = query.where('status', '=', filters.status);
      if (filters.search) query = query.where(sql`lower(name)`, 'like', containsPattern(filters.search));
      const { rows, pagination: page } = await newestFirstPage(query, request, 'asc');
      return { kits: rows.map(toKit), page };
    },
  };
}

export type KitsRepository = ReturnType<typeof kitsRepository>;
