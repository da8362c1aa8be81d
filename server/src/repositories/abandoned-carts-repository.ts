import type { Kysely, Selectable } from 'kysely';
import type { components } from '../../../generated/openapi.ts';
import type { AbandonedCartsTable, Database } from '../db/schema.ts';
import { flag, flagColumn, json, jsonColumn, money, moneyColumn } from './columns.ts';
import { newestFirstPage, type PageRequest } from './pagination.ts';

export type AbandonedCart = components['schemas']['AbandonedCart'];

export interface AbandonedCartFilters {
  recovered?: boolean | undefined;
  createdFrom?: string | undefined;
  createdTo?: string | undefined;
}

function toCart(row: Selectable<AbandonedCartsTable>): AbandonedCart {
  return {
    id: row.id,
    storeId: row.store_id,
    customer: json(row.customer),
    items: json(row.items),
    subtotal: money(row.subtotal),
    currency: row.currency,
    recoveryUrl: row.recovery_url,
    recovered: flag(row.recovered),
    recoveredOrderId: row.recovered_order_id,
    abandonedAt: row.abandoned_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function abandonedCartsRepository(db: Kysely<Database>) {
  return {
    async insert(cart: AbandonedCart): Promise<void> {
      await db
        .insertInto('abandoned_carts')
        .values({
          id: cart.id,
          store_id: cart.storeId,
          customer: jsonColumn(cart.customer),
          items: jsonColumn(cart.items),
          subtotal: moneyColumn(cart.subtotal),
          currency: cart.currency,
          recovery_url: cart.recoveryUrl,
          recovered: flagColumn(cart.recovered),
          recovered_order_id: cart.recoveredOrderId,
          abandoned_at: cart.abandonedAt,
          created_at: cart.createdAt,
          updated_at: cart.updatedAt,
        })
        .execute();
    },

    async find(storeId: string, id: string): Promise<AbandonedCart | undefined> {
      const row = await db
        .selectFrom('abandoned_carts')
        .selectAll()
        .where('store_id', '=', storeId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row && toCart(row);
    },

    async list(storeId: string, filters: AbandonedCartFilters, request: PageRequest) {
      let query = db.selectFrom('abandoned_carts').where('store_id', '=', storeId);
      if (filters.recovered !== undefined) query = query.where('recovered', '=', flagColumn(filters.recovered));
      if (filters.createdFrom) query = query.where('created_at', '>=', filters.createdFrom);
      if (filters.createdTo) query = query.where('created_at', '<', filters.createdTo);
      const { rows, pagination: page } = await newestFirstPage(query, request, 'asc');
      return { abandonedCarts: rows.map(toCart), page };
    },
  };
}

export type AbandonedCartsRepository = ReturnType<typeof abandonedCartsRepository>;
