// Row types of the tables, as the migrations in server/migrations create them.
export type { Database } from '../resources/index.ts';

// Column conventions: ids, timestamps, money and JSON are strings; flags are 0/1 integers.

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

/** The tables not yet moved into a resource folder (`resources/<resource>/table.ts`). */
export interface LegacyTables {
  rate_limits: RateLimitsTable;
  idempotency_keys: IdempotencyKeysTable;
  orders: OrdersTable;
  order_items: OrderItemsTable;
  tracking_events: TrackingEventsTable;
}
