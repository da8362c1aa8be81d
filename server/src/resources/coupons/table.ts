import type { components } from '../../../../generated/openapi.ts';

type Coupon = components['schemas']['Coupon'];

/** `coupons`, as server/migrations/004_offers_pricing_checkout.sql creates it. */
export interface CouponsTable {
  id: string;
  store_id: string;
  code: string;
  description: string | null;
  discount_type: Coupon['discountType'];
  discount_amount: string;
  min_cart_total: string | null;
  max_uses: number | null;
  used_count: number;
  starts_at: string | null;
  ends_at: string | null;
  status: Coupon['status'];
  created_at: string;
  updated_at: string;
}

export interface CouponTables {
  coupons: CouponsTable;
}
