import type { components } from '../../../../generated/openapi.ts';

type Schemas = components['schemas'];

/** `discount_ranges`, as server/migrations/004_offers_pricing_checkout.sql creates it. */
export interface DiscountRangesTable {
  id: string;
  store_id: string;
  name: string;
  rule_type: Schemas['DiscountRange']['ruleType'];
  applies_to_all_products: number;
  apply_discount_to: Schemas['DiscountRange']['applyDiscountTo'];
  item_range_start: number | null;
  item_range_end: number | null;
  item_range_order_by: Schemas['DiscountRange']['itemRangeOrderBy'];
  start_at: string | null;
  end_at: string | null;
  active: number;
  priority: number;
  product_ids: string;
  created_at: string;
  updated_at: string;
}

/** `discount_range_tiers`: a range's tiers, replaced as a whole list. */
export interface DiscountRangeTiersTable {
  id: string;
  discount_range_id: string;
  min_value: string | null;
  max_value: string | null;
  min_quantity: number | null;
  max_quantity: number | null;
  discount_type: Schemas['DiscountRangeTier']['discountType'];
  discount_amount: string;
  position: number;
}

export interface DiscountRangeTables {
  discount_ranges: DiscountRangesTable;
  discount_range_tiers: DiscountRangeTiersTable;
}
