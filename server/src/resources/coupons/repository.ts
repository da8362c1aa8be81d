import type { Kysely } from 'kysely';
import type { components, operations } from '../../../../generated/openapi.ts';
import { money, nullableMoney } from '../../db/column-codecs.ts';
import { storeTable } from '../../db/store-table.ts';
import type { Database } from '../index.ts';

export type Coupon = components['schemas']['Coupon'];
type ListCouponsQuery = NonNullable<operations['listCoupons']['parameters']['query']>;

/** Coupons are never deleted (section 1): there is no delete here; a coupon is retired with status INACTIVE. */
export function couponsRepository(db: Kysely<Database>) {
  const coupons = storeTable(db, 'coupons', { discount_amount: money, min_cart_total: nullableMoney });
  return {
    /** createCoupon and updateCoupon throw `DuplicateRecord` for a code already used in the store. */
    ...coupons.operations('createCoupon', 'getCouponById', 'updateCoupon'),
    listCoupons: coupons.list('coupons', (q: ListCouponsQuery) => ({ status: q.status }), {
      searchIn: ['code'],
      order: 'asc',
    }),

    /** The coupon a payment link names by code (createPaymentLink). */
    async couponByCode(storeId: string, code: string): Promise<Coupon | undefined> {
      const row = await db
        .selectFrom('coupons')
        .selectAll()
        .where('store_id', '=', storeId)
        .where('code', '=', code)
        .executeTakeFirst();
      return row && coupons.decode(row);
    },
  };
}
