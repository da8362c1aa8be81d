import type { components } from '../../../../generated/openapi.ts';

type Schemas = components['schemas'];

/**
 * `orders`, as server/migrations/002_orders_customers.sql creates it. `customer_document_number` copies the
 * buyer's document (customers are grouped by it); the five `tracking_*` columns are all null until the first
 * tracking event.
 */
export interface OrdersTable {
  id: string;
  store_id: string;
  status: Schemas['OrderStatus'];
  total: string;
  subtotal: string;
  discount: string | null;
  currency: Schemas['CurrencyCode'];
  payment_method: string;
  installments: number;
  notes: string | null;
  customer: string;
  customer_document_number: string;
  shipping_address: string;
  shipping: string;
  tracking_code: string | null;
  tracking_url: string | null;
  tracking_status: Schemas['OrderTracking']['status'] | null;
  tracking_status_label: string | null;
  tracking_updated_at: string | null;
  tags: string;
  created_at: string;
  updated_at: string;
}

/** `order_items`: an order's lines in `position` order (the product is null for a free line). */
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

/** `tracking_events`: an order's timeline, `position` 1, 2, … (UNIQUE order_id, position). */
export interface TrackingEventsTable {
  id: string;
  store_id: string;
  order_id: string;
  position: number;
  status: Schemas['TrackingStatus'];
  label: string;
  previous_status: Schemas['TrackingStatus'] | null;
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

export interface OrderTables {
  orders: OrdersTable;
  order_items: OrderItemsTable;
  tracking_events: TrackingEventsTable;
}
