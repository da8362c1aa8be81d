-- Nothing lost: webhook deliveries and automation runs are rows the delivery worker claims, not timers in memory.
-- A delivery is written in the same transaction as the change whose event it carries (the outbox), one per
-- subscribed active webhook; the worker claims due rows (on PostgreSQL with FOR UPDATE SKIP LOCKED), and a
-- claim moves `next_attempt_at` to the next step of the retry schedule, so an attempt cut off by a crash is
-- tried again then.
CREATE TABLE webhook_deliveries (
  id TEXT PRIMARY KEY,
  store_id TEXT NOT NULL,
  webhook_id TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  message_id TEXT NOT NULL,
  event_type TEXT NOT NULL,
  payload TEXT NOT NULL,
  status TEXT NOT NULL,
  attempts INTEGER NOT NULL,
  max_attempts INTEGER NOT NULL,
  next_attempt_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

-- The worker's look-up: pending deliveries by due time.
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at);

-- The delivery log of one webhook, newest first.
CREATE INDEX webhook_deliveries_webhook_created ON webhook_deliveries (webhook_id, created_at, id);

-- Every attempt, as it ended. The key makes a second claim of the same attempt impossible.
CREATE TABLE webhook_delivery_attempts (
  delivery_id TEXT NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  attempt INTEGER NOT NULL,
  attempted_at TEXT NOT NULL,
  status_code INTEGER,
  duration_ms INTEGER NOT NULL,
  error TEXT,
  PRIMARY KEY (delivery_id, attempt)
);

-- A running automation run: the index of the step it runs next (NULL once finished), how many messages it has
-- sent, and when the worker picks it up (now, or the end of a delay).
ALTER TABLE automation_runs ADD COLUMN next_step INTEGER;

ALTER TABLE automation_runs ADD COLUMN sent INTEGER NOT NULL DEFAULT 0;

ALTER TABLE automation_runs ADD COLUMN resume_at TEXT;

CREATE INDEX automation_runs_due ON automation_runs (status, resume_at);
