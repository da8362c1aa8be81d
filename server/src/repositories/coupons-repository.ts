import { type Kysely, type Selectable, sql } from 'kysely';
import type { components } from '../../../generated/openapi.ts';
import type { CouponsTable, Database } from '../db/schema.ts';
import { money, moneyColumn, nullableMoney, nullableMoneyColumn } from './columns.ts';
import { containsPattern, newestFirstPage, type PageRequest } from './pagination.ts';

export type Coupon = components['schemas']['Coupon'];

export interface CouponFilters {
  status?: Coupon['status'] | undefined;
  search?: string | undefined;
}

function toRow(coupon: Coupon): Selectable<CouponsTable> {
  return {
    id: coupon.id,
    store_id: coupon.storeId,
    code: coupon.code,
    description: coupon.description,
    discount_type: coupon.discountType,
    discount_amount: moneyColumn(coupon.discountAmount),
    min_cart_total: nullableMoneyColumn(coupon.minCartTotal),
    max_uses: coupon.maxUses,
    used_count: coupon.usedCount,
    starts_at: coupon.startsAt,
    ends_at: coupon.endsAt,
    status: coupon.status,
    created_at: coupon.createdAt,
    updated_at: coupon.updatedAt,
  };
}

function toCoupon(row: Selectable<CouponsTable>): Coupon {
  return {
    id: row.id,
    storeId: row.store_id,
    code: row.code,
    description: row.description,
    discountType: row.discount_type as Coupon['discountType'],
    discountAmount: money(row.discount_amount),
    minCartTotal: nullableMoney(row.min_cart_total),
    maxUses: row.max_uses,
    usedCount: row.used_count,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    status: row.status as Coupon['status'],
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Coupons are never deleted (section 1): there is no delete here; a coupon is retired with status INACTIVE. */
export function couponsRepository(db: Kysely<Database>) {
  return {
    async insert(coupon: Coupon): Promise<void> {
      await db.insertInto('coupons').values(toRow(coupon)).execute();
    },

    async find(storeId: string, id: string): Promise<Coupon | undefined> {
      const row = await db
        .selectFrom('coupons')
        .selectAll()
        .where('store_id', '=', storeId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row && toCoupon(row);
    },

    async findByCode(storeId: string, code: string): Promise<Coupon | undefined> {
      const row = await db
        .selectFrom('coupons')
        .selectAll()
        .where('store_id', '=', storeId)
        .where('code', '=', code)
        .executeTakeFirst();
      return row && toCoupon(row);
    },

    /** Writes the fields a client may change; `usedCount` belongs to the server and is left as stored. */
    async replace(coupon: Coupon): Promise<void> {
      const { id, store_id, created_at: _created, used_count: _used, ...changes } = toRow(coupon);
      await db.updateTable('coupons').set(changes).where('store_id', '=', store_id).where('id', '=', id).execute();
    },

    async list(storeId: string, filters: CouponFilters, request: PageRequest) {
      let query = db.selectFrom('coupons').where('store_id', '=', storeId);
      if (filters.status) query = query.where('status', '=', filters.status);
      if (filters.search) query = query.where(sql`lower(code)`, 'like', containsPattern(filters.search));
      const { rows, pagination: page } = await newestFirstPage(query, request, 'asc');
      return { coupons: rows.map(toCoupon), page };
    },
  };
}

export type CouponsRepository = ReturnType<typeof couponsRepository>;
