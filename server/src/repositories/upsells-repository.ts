import { type Kysely, type Selectable, sql } from 'kysely';
import type { components } from '../../../generated/openapi.ts';
import type { Database, UpsellsTable } from '../db/schema.ts';
import { flag, flagColumn, json, jsonColumn, money, moneyColumn } from './columns.ts';
import { containsPattern, newestFirstPage, type PageRequest } from './pagination.ts';

export type Upsell = components['schemas']['Upsell'];

export interface UpsellFilters {
  active?: boolean | undefined;
  search?: string | undefined;
}

function toRow(upsell: Upsell): Selectable<UpsellsTable> {
  return {
    id: upsell.id,
    store_id: upsell.storeId,
    name: upsell.name,
    product_id: upsell.productId,
    trigger_product_ids: jsonColumn(upsell.triggerProductIds),
    discount_type: upsell.discountType,
    discount_amount: moneyColumn(upsell.discountAmount),
    title: upsell.title,
    description: upsell.description,
    active: flagColumn(upsell.active),
    created_at: upsell.createdAt,
    updated_at: upsell.updatedAt,
  };
}

function toUpsell(row: Selectable<UpsellsTable>): Upsell {
  return {
    id: row.id,
    storeId: row.store_id,
    name: row.name,
    productId: row.product_id,
    triggerProductIds: json(row.trigger_product_ids),
    discountType: row.discount_type as Upsell['discountType'],
    discountAmount: money(row.discount_amount),
    title: row.title,
    description: row.description,
    active: flag(row.active),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function upsellsRepository(db: Kysely<Database>) {
  return {
    async insert(upsell: Upsell): Promise<void> {
      await db.insertInto('upsells').values(toRow(upsell)).execute();
    },

    async find(storeId: string, id: string): Promise<Upsell | undefined> {
      const row = await db
        .selectFrom('upsells')
        .selectAll()
        .where('store_id', '=', storeId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row && toUpsell(row);
    },

    async replace(upsell: Upsell): Promise<void> {
      const { id, store_id, created_at: _created, ...changes } = toRow(upsell);
      await db.updateTable('upsells').set(changes).where('store_id', '=', store_id).where('id', '=', id).execute();
    },

    async delete(storeId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom('upsells')
        .where('store_id', '=', storeId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** `search` matches the name or the title. */
    async list(storeId: string, filters: UpsellFilters, request: PageRequest) {
      let query = db.selectFrom('upsells').where('store_id', '=', storeId);
      if (filters.active !== undefined) query = query.where('active', '=', flagColumn(filters.active));
      if (filters.search) {
        const pattern = containsPattern(filters.search);
        query = query.where((eb) =>
          eb.or([eb(sql`lower(name)`, 'like', pattern), eb(sql`lower(title)`, 'like', pattern)]),
        );
      }
      const { rows, pagination: page } = await newestFirstPage(query, request, 'asc');
      return { upsells: rows.map(toUpsell), page };
    },
  };
}

export type UpsellsRepository = ReturnType<typeof upsellsRepository>;
