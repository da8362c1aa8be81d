import type { Kysely, Selectable } from 'kysely';
import type { components } from '../../../generated/openapi.ts';
import type { Database, PaymentLinksTable } from '../db/schema.ts';
import { json, jsonColumn, money, moneyColumn, nullableJson, nullableJsonColumn } from './columns.ts';

type Schemas = components['schemas'];
export type PaymentLink = Schemas['PaymentLink'];

/** A payment link as stored: the read shape (minus the derived `url`) plus what the payment page needs. */
export interface PaymentLinkRecord extends Omit<PaymentLink, 'url'> {
  couponId: string | null;
  customer: Schemas['CustomerCreate'] | null;
  successUrl: string | null;
  cancelUrl: string | null;
}

function toRow(link: PaymentLinkRecord): Selectable<PaymentLinksTable> {
  return {
    id: link.id,
    store_id: link.storeId,
    status: link.status,
    items: jsonColumn(link.items),
    subtotal: moneyColumn(link.subtotal),
    discount: moneyColumn(link.discount),
    total: moneyColumn(link.total),
    currency: link.currency,
    coupon_id: link.couponId,
    customer: nullableJsonColumn(link.customer),
    success_url: link.successUrl,
    cancel_url: link.cancelUrl,
    expires_at: link.expiresAt,
    created_at: link.createdAt,
    updated_at: link.updatedAt,
  };
}

function toRecord(row: Selectable<PaymentLinksTable>): PaymentLinkRecord {
  return {
    id: row.id,
    storeId: row.store_id,
    status: row.status as PaymentLink['status'],
    items: json(row.items),
    subtotal: money(row.subtotal),
    discount: money(row.discount),
    total: money(row.total),
    currency: row.currency,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    couponId: row.coupon_id,
    customer: nullableJson(row.customer),
    successUrl: row.success_url,
    cancelUrl: row.cancel_url,
  };
}

export function paymentLinksRepository(db: Kysely<Database>) {
  return {
    async insert(link: PaymentLinkRecord): Promise<void> {
      await db.insertInto('payment_links').values(toRow(link)).execute();
    },

    async find(storeId: string, id: string): Promise<PaymentLinkRecord | undefined> {
      const row = await db
        .selectFrom('payment_links')
        .selectAll()
        .where('store_id', '=', storeId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row && toRecord(row);
    },
  };
}

export type PaymentLinksRepository = ReturnType<typeof paymentLinksRepository>;
