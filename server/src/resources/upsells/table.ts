import type { components } from '../../../../generated/openapi.ts';

/** `upsells`, as server/migrations/004_offers_pricing_checkout.sql creates it. */
export interface UpsellsTable {
  id: string;
  store_id: string;
  name: string;
  product_id: string;
  trigger_product_ids: string;
  discount_type: components['schemas']['Upsell']['discountType'];
  discount_amount: string;
  title: string;
  description: string | null;
  active: number;
  created_at: string;
  updated_at: string;
}

export interface UpsellTables {
  upsells: UpsellsTable;
}
