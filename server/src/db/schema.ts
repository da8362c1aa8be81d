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

export interface WebhooksTable {
  id: string;
  store_id: string;
  name: string;
  description: string | null;
  url: string;
  events: string;
  active: number;
  retry_attempts: number;
  timeout: number;
  secret: string | null;
  headers: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookEventsTable {
  webhook_id: string;
  store_id: string;
  event: string;
  active: number;
  created_at: string;
}

export interface AutomationsTable {
  id: string;
  store_id: string;
  name: string;
  trigger_event: string;
  active: number;
  steps: string;
  created_at: string;
  updated_at: string;
}

export interface AutomationRunsTable {
  id: string;
  store_id: string;
  automation_id: string;
  event_id: string;
  event_name: string;
  order_id: string | null;
  steps: string;
  status: string;
  error: string | null;
  created_at: string;
  finished_at: string | null;
}

export interface AutomationOutboxTable {
  id: string;
  store_id: string;
  run_id: string;
  position: number;
  step_id: string;
  operation: string;
  channel: string;
  template_id: string | null;
  subject: string | null;
  content: string;
  created_at: string;
}

export interface WebhookCountsTable {
  store_id: string;
  total: number;
  active: number;
}

/** The tables not yet moved into a resource folder (`resources/<resource>/table.ts`). */
export interface LegacyTables {
  webhook_counts: WebhookCountsTable;
  rate_limits: RateLimitsTable;
  idempotency_keys: IdempotencyKeysTable;
  orders: OrdersTable;
  order_items: OrderItemsTable;
  tracking_events: TrackingEventsTable;
  webhooks: WebhooksTable;
  webhook_events: WebhookEventsTable;
  automations: AutomationsTable;
  automation_runs: AutomationRunsTable;
  automation_outbox: AutomationOutboxTable;
}
