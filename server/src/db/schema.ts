// Row types of the tables, as the migrations in server/migrations create them.
export type { Database } from '../resources/index.ts';

// Column conventions: ids, timestamps, money and JSON are strings; flags are 0/1 integers.

export interface StoresTable {
  id: string;
  name: string;
  currency: string;
  created_at: string;
}

export interface ApiKeysTable {
  id: string;
  key_hash: string;
  name: string | null;
  store_ids: string;
  scopes: string;
  expires_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

export interface CheckoutKeysTable {
  id: string;
  key_hash: string;
  store_id: string;
  revoked_at: string | null;
  created_at: string;
}

export interface RateLimitsTable {
  bucket: string;
  window_start: number;
  hits: number;
}

export interface IdempotencyKeysTable {
  store_id: string;
  idempotency_key: string;
  operation_id: string;
  request_hash: string;
  state: 'pending' | 'done';
  status: number | null;
  body: string | null;
  created_at: string;
}

export interface CustomersTable {
  id: string;
  store_id: string;
  name: string;
  email: string;
  phone: string | null;
  document_type: string;
  document_number: string;
  created_at: string;
  updated_at: string;
}

export interface OrdersTable {
  id: string;
  store_id: string;
  status: string;
  total: string;
  subtotal: string;
  discount: string | null;
  currency: string;
  payment_method: string;
  installments: number;
  notes: string | null;
  customer: string;
  customer_document_number: string;
  shipping_address: string;
  shipping: string;
  tracking_code: string | null;
  tracking_url: string | null;
  tracking_status: string | null;
  tracking_status_label: string | null;
  tracking_updated_at: string | null;
  tags: string;
  created_at: string;
  updated_at: string;
}

export interface OrderItemsTable {
  id: string;
  order_id: string;
  position: number;
  product_id: string | null;
  variant_id: string | null;
  name: string;
  quantity: number;
  price: string;
  image: string;
}

export interface TrackingEventsTable {
  id: string;
  store_id: string;
  order_id: string;
  position: number;
  status: string;
  label: string;
  previous_status: string | null;
  previous_label: string | null;
  occurred_at: string;
  location_label: string;
  latitude: string;
  longitude: string;
  carrier: string;
  tracking_code: string;
  source: string;
  provider: string;
  replayed: number;
  retry_count: number;
  processing_state: string;
  created_at: string;
}

export interface LeadsTable {
  id: string;
  store_id: string;
  name: string | null;
  email: string;
  phone: string | null;
  source: string;
  tags: string;
  created_at: string;
  updated_at: string;
}

export interface AbandonedCartsTable {
  id: string;
  store_id: string;
  customer: string;
  items: string;
  subtotal: string;
  currency: string;
  recovery_url: string;
  recovered: number;
  recovered_order_id: string | null;
  abandoned_at: string;
  created_at: string;
  updated_at: string;
}

export interface MessageTemplatesTable {
  id: string;
  store_id: string;
  channel: string;
  name: string;
  subject: string | null;
  remetente_nome: string | null;
  remetente_email: string | null;
  body: string | null;
  html: string | null;
  message: string | null;
  created_at: string;
  updated_at: string;
}

export interface MetatagsTable {
  id: string;
  store_id: string;
  name: string;
  content: string;
  placement: string;
  pages: string;
  active: number;
  created_at: string;
  updated_at: string;
}

// Offers, pricing and the external checkout (migration 004).

export interface KitsTable {
  id: string;
  store_id: string;
  name: string;
  description: string | null;
  status: string;
  price: string;
  items: string;
  created_at: string;
  updated_at: string;
}

export interface GiftsTable {
  id: string;
  store_id: string;
  name: string;
  product_id: string;
  active: number;
  min_cart_total: string;
  max_quantity: number;
  starts_at: string | null;
  ends_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface UpsellsTable {
  id: string;
  store_id: string;
  name: string;
  product_id: string;
  trigger_product_ids: string;
  discount_type: string;
  discount_amount: string;
  title: string;
  description: string | null;
  active: number;
  created_at: string;
  updated_at: string;
}

export interface OrderBumpsTable {
  id: string;
  store_id: string;
  name: string;
  description: string | null;
  type: string;
  status: string;
  product_id: string;
  product_variant_id: string | null;
  discount_type: string;
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

export interface CouponsTable {
  id: string;
  store_id: string;
  code: string;
  description: string | null;
  discount_type: string;
  discount_amount: string;
  min_cart_total: string | null;
  max_uses: number | null;
  used_count: number;
  starts_at: string | null;
  ends_at: string | null;
  status: string;
  created_at: string;
  updated_at: string;
}

export interface DiscountRangesTable {
  id: string;
  store_id: string;
  name: string;
  rule_type: string;
  applies_to_all_products: number;
  apply_discount_to: string | null;
  item_range_start: number | null;
  item_range_end: number | null;
  item_range_order_by: string | null;
  start_at: string | null;
  end_at: string | null;
  active: number;
  priority: number;
  product_ids: string;
  created_at: string;
  updated_at: string;
}

export interface DiscountRangeTiersTable {
  id: string;
  discount_range_id: string;
  min_value: string | null;
  max_value: string | null;
  min_quantity: number | null;
  max_quantity: number | null;
  discount_type: string;
  discount_amount: string;
  position: number;
}

export interface PaymentDiscountsTable {
  id: string;
  store_id: string;
  payment_method: string;
  percentage: string;
  active: number;
  created_at: string;
  updated_at: string;
}

export interface PaymentLinksTable {
  id: string;
  store_id: string;
  status: string;
  items: string;
  subtotal: string;
  discount: string;
  total: string;
  currency: string;
  coupon_id: string | null;
  customer: string | null;
  success_url: string | null;
  cancel_url: string | null;
  expires_at: string;
  created_at: string;
  updated_at: string;
}

/** The tables not yet moved into a resource folder (`resources/<resource>/table.ts`). */
export interface LegacyTables {
  stores: StoresTable;
  api_keys: ApiKeysTable;
  checkout_keys: CheckoutKeysTable;
  rate_limits: RateLimitsTable;
  idempotency_keys: IdempotencyKeysTable;
  kits: KitsTable;
  gifts: GiftsTable;
  upsells: UpsellsTable;
  order_bumps: OrderBumpsTable;
  coupons: CouponsTable;
  discount_ranges: DiscountRangesTable;
  discount_range_tiers: DiscountRangeTiersTable;
  payment_discounts: PaymentDiscountsTable;
  payment_links: PaymentLinksTable;
  customers: CustomersTable;
  orders: OrdersTable;
  order_items: OrderItemsTable;
  tracking_events: TrackingEventsTable;
  leads: LeadsTable;
  abandoned_carts: AbandonedCartsTable;
  message_templates: MessageTemplatesTable;
  metatags: MetatagsTable;
}
