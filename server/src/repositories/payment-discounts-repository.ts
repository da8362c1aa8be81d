import type { Kysely, Selectable } from 'kysely';
import type { components } from '../../../generated/openapi.ts';
import type { Database, PaymentDiscountsTable } from '../db/schema.ts';
import { flag, flagColumn, money, moneyColumn } from './columns.ts';
import { newestFirstPage, type PageRequest } from './pagination.ts';

export type PaymentDiscount = components['schemas']['PaymentDiscount'];

export interface PaymentDiscountFilters {
  paymentMethod?: PaymentDiscount['paymentMethod'] | undefined;
  active?: boolean | undefined;
}

function toRow(discount: PaymentDiscount): Selectable<PaymentDiscountsTable> {
  return {
    id: discount.id,
    store_id: discount.storeId,
    payment_method: discount.paymentMethod,
    percentage: moneyColumn(discount.percentage),
    active: flagColumn(discount.active),
    created_at: discount.createdAt,
    updated_at: discount.updatedAt,
  };
}

function toDiscount(row: Selectable<PaymentDiscountsTable>): PaymentDiscount {
  return {
    id: row.id,
    storeId: row.store_id,
    paymentMethod: row.payment_method as PaymentDiscount['paymentMethod'],
    percentage: money(row.percentage),
    active: flag(row.active),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** One discount per payment method per store: UNIQUE (store_id, payment_method) makes a second one fail. */
export function paymentDiscountsRepository(db: Kysely<Database>) {
  return {
    async insert(discount: PaymentDiscount): Promise<void> {
      await db.insertInto('payment_discounts').values(toRow(discount)).execute();
    },

    async find(storeId: string, id: string): Promise<PaymentDiscount | undefined> {
      const row = await db
        .selectFrom('payment_discounts')
        .selectAll()
        .where('store_id', '=', storeId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row && toDiscount(row);
    },

    async replace(discount: PaymentDiscount): Promise<void> {
      const { id, store_id, created_at: _created, ...changes } = toRow(discount);
      await db
        .updateTable('payment_discounts')
        .set(changes)
        .where('store_id', '=', store_id)
        .where('id', '=', id)
        .execute();
    },

    async delete(storeId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom('payment_discounts')
        .where('store_id', '=', storeId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async list(storeId: string, filters: PaymentDiscountFilters, request: PageRequest) {
      let query = db.selectFrom('payment_discounts').where('store_id', '=', storeId);
      if (filters.paymentMethod) query = query.where('payment_method', '=', filters.paymentMethod);
      if (filters.active !== undefined) query = query.where('active', '=', flagColumn(filters.active));
      const { rows, pagination: page } = await newestFirstPage(query, request, 'asc');
      return { paymentDiscounts: rows.map(toDiscount), page };
    },
  };
}

export type PaymentDiscountsRepository = ReturnType<typeof paymentDiscountsRepository>;
