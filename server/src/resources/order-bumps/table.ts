import type { components } from '../../../../generated/openapi.ts';

type OrderBump = components['schemas']['OrderBump'];

/** `order_bumps`, as server/migrations/004_offers_pricing_checkout.sql creates it. */
export interface OrderBumpsTable {
  id: string;
  store_id: string;
  name: string;
  description: string | null;
  type: OrderBump['type'];
  status: OrderBump['status'];
  product_id: string;
  product_variant_id: string | null;
  discount_type: OrderBump['discountType'];
  discount_amount: string;
  title: string;
  subtitle: string | null;
  image: string;
  price: string;
  discounted_price: string;
  auto_add: number;
  required: number;
  max_quantity: number;
  starts_at: string | null;
  ends_at: string | null;
  trigger_product_ids: string;
  target_category_ids: string;
  min_cart_total: string | null;
  max_cart_total: string | null;
  position: number;
  display_order: number;
  is_standalone: number;
  standalone_settings: string | null;
  button_text: string;
  created_at: string;
  updated_at: string;
}

export interface OrderBumpTables {
  order_bumps: OrderBumpsTable;
}
