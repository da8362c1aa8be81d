import { type Kysely, type Selectable, sql } from 'kysely';
import type { components } from '../../../generated/openapi.ts';
import type { Database, GiftsTable } from '../db/schema.ts';
import { flag, flagColumn, money, moneyColumn } from './columns.ts';
import { containsPattern, newestFirstPage, type PageRequest } from './pagination.ts';

export type Gift = components['schemas']['Gift'];

export interface GiftFilters {
  active?: boolean | undefined;
  search?: string | undefined;
}

function toRow(gift: Gift): Selectable<GiftsTable> {
  return {
    id: gift.id,
    store_id: gift.storeId,
    name: gift.name,
    product_id: gift.productId,
    active: flagColumn(gift.active),
    min_cart_total: moneyColumn(gift.minCartTotal),
    max_quantity: gift.maxQuantity,
    starts_at: gift.startsAt,
    ends_at: gift.endsAt,
    created_at: gift.createdAt,
    updated_at: gift.updatedAt,
  };
}

function toGift(row: Selectable<GiftsTable>): Gift {
  return {
    id: row.id,
    storeId: row.store_id,
    name: row.name,
    productId: row.product_id,
    active: flag(row.active),
    minCartTotal: money(row.min_cart_total),
    maxQuantity: row.max_quantity,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function giftsRepository(db: Kysely<Database>) {
  return {
    async insert(gift: Gift): Promise<void> {
      await db.insertInto('gifts').values(toRow(gift)).execute();
    },

    async find(storeId: string, id: string): Promise<Gift | undefined> {
      const row = await db
        .selectFrom('gifts')
        .selectAll()
        .where('store_id', '=', storeId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row && toGift(row);
    },

    async replace(gift: Gift): Promise<void> {
      const { id, store_id, created_at: _created, ...changes } = toRow(gift);
      await db.updateTable('gifts').set(changes).where('store_id', '=', store_id).where('id', '=', id).execute();
    },

    async delete(storeId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom('gifts')
        .where('store_id', '=', storeId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async list(storeId: string, filters: GiftFilters, request: PageRequest) {
      let query = db.selectFrom('gifts').where('store_id', '=', storeId);
      if (filters.active !== undefined) query = query.where('active', '=', flagColumn(filters.active));
      if (filters.search) query = query.where(sql`lower(name)`, 'like', containsPattern(filters.search));
      const { rows, pagination: page } = await newestFirstPage(query, request, 'asc');
      return { gifts: rows.map(toGift), page };
    },
  };
}

export type GiftsRepository = ReturnType<typeof giftsRepository>;
