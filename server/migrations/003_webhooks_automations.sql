-- Webhooks, automations (with their runs and message outbox), message templates and metatags.
-- Same portable subset as 001: ids, timestamps, JSON are TEXT; flags are INTEGER 0/1.

CREATE TABLE webhooks (
  id TEXT PRIMARY KEY,
  store_id TEXT NOT NULL REFERENCES stores (id),
  name TEXT NOT NULL,
  description TEXT,
  url TEXT NOT NULL,
  events TEXT NOT NULL,
  active INTEGER NOT NULL,
  retry_attempts INTEGER NOT NULL,
  timeout INTEGER NOT NULL,
  secret TEXT,
  headers TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

-- The list walks this index newest first (and pages through it without touching the rows it skips).
CREATE INDEX webhooks_store_created ON webhooks (store_id, created_at, id);

CREATE INDEX webhooks_store_active_created ON webhooks (store_id, active, created_at, id);

-- One row per subscribed event: the `events` filter of the list and the delivery look-up use it. It repeats
-- the webhook's `active` and `created_at` (rewritten with every change of the webhook) so that a filtered page
-- is read from an index alone, newest first, without visiting the webhooks it skips.
CREATE TABLE webhook_events (
  webhook_id TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  store_id TEXT NOT NULL,
  event TEXT NOT NULL,
  active INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (webhook_id, event)
);

-- Pages of the `events` filter walk the store's subscriptions newest first (one entry per webhook and event,
-- grouped back into webhooks as they stream by); deliveries look subscribers up by event.
CREATE INDEX webhook_events_store_created ON webhook_events (store_id, created_at, webhook_id, event, active);

CREATE INDEX webhook_events_store_event ON webhook_events (store_id, event);

CREATE TABLE message_templates (
  id TEXT PRIMARY KEY,
  store_id TEXT NOT NULL REFERENCES stores (id),
  channel TEXT NOT NULL,
  name TEXT NOT NULL,
  subject TEXT,
  remetente_nome TEXT,
  remetente_email TEXT,
  body TEXT,
  html TEXT,
  message TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE INDEX message_templates_store_created ON message_templates (store_id, created_at, id);

CREATE TABLE automations (
  id TEXT PRIMARY KEY,
  store_id TEXT NOT NULL REFERENCES stores (id),
  name TEXT NOT NULL,
  trigger_event TEXT NOT NULL,
  active INTEGER NOT NULL,
  steps TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE INDEX automations_store_created ON automations (store_id, created_at, id);

CREATE INDEX automations_store_trigger ON automations (store_id, trigger_event, active);

-- A run keeps the steps it started with: deleting or editing the automation does not change a started run.
CREATE TABLE automation_runs (
  id TEXT PRIMARY KEY,
  store_id TEXT NOT NULL REFERENCES stores (id),
  automation_id TEXT NOT NULL,
  event_id TEXT NOT NULL,
  event_name TEXT NOT NULL,
  order_id TEXT,
  steps TEXT NOT NULL,
  status TEXT NOT NULL,
  error TEXT,
  created_at TEXT NOT NULL,
  finished_at TEXT
);

CREATE INDEX automation_runs_store_created ON automation_runs (store_id, created_at);

-- The messages the runs "sent": one row per executed action.
CREATE TABLE automation_outbox (
  id TEXT PRIMARY KEY,
  store_id TEXT NOT NULL,
  run_id TEXT NOT NULL REFERENCES automation_runs (id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  step_id TEXT NOT NULL,
  operation TEXT NOT NULL,
  channel TEXT NOT NULL,
  template_id TEXT,
  subject TEXT,
  content TEXT NOT NULL,
  created_at TEXT NOT NULL
);

CREATE INDEX automation_outbox_run ON automation_outbox (run_id, position);

CREATE TABLE metatags (
  id TEXT PRIMARY KEY,
  store_id TEXT NOT NULL REFERENCES stores (id),
  name TEXT NOT NULL,
  content TEXT NOT NULL,
  placement TEXT NOT NULL,
  pages TEXT NOT NULL,
  active INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE INDEX metatags_store_created ON metatags (store_id, created_at, id);
