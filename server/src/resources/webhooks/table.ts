import type { components } from '../../../../generated/openapi.ts';

type WebhookEventName = components['schemas']['WebhookEventName'];

/** `webhooks`, as server/migrations/003_webhooks_automations.sql creates it. */
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

/** `webhook_events`: one row per subscribed event (the `events` filter and the delivery look-up). */
export interface WebhookEventsTable {
  webhook_id: string;
  store_id: string;
  event: WebhookEventName;
  active: number;
  created_at: string;
}

/** `webhook_counts` (005): the store's totals, kept with every change of a webhook. */
export interface WebhookCountsTable {
  store_id: string;
  total: number;
  active: number;
}

export interface WebhookTables {
  webhooks: WebhooksTable;
  webhook_events: WebhookEventsTable;
  webhook_counts: WebhookCountsTable;
}

/** `webhook_deliveries` (006): one event for one webhook, the outbox row the delivery worker claims. */
export interface WebhookDeliveriesTable {
  id: string;
  store_id: string;
  webhook_id: string;
  /** The `webhook-id` header, the same on every attempt. */
  message_id: string;
  event_type: WebhookEventName;
  /** The exact body sent on every attempt. */
  payload: string;
  status: components['schemas']['WebhookDeliveryStatus'];
  /** Attempts claimed so far. */
  attempts: number;
  /** After a failed attempt with this many claimed, the delivery is FAILED. */
  max_attempts: number;
  /** When PENDING: when the worker may claim it next. */
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
}

/** `webhook_delivery_attempts` (006): every attempt, as it ended. */
export interface WebhookDeliveryAttemptsTable {
  delivery_id: string;
  attempt: number;
  attempted_at: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
}

export interface WebhookDeliveryTables {
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_delivery_attempts: WebhookDeliveryAttemptsTable;
}
