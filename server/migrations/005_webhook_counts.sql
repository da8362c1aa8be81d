-- How many webhooks each store has (and how many are active), kept in the same transaction as every change
-- of a webhook: the unfiltered webhook list reads its total here instead of counting up to 100,000 rows.

CREATE TABLE webhook_counts (
  store_id TEXT PRIMARY KEY,
  total INTEGER NOT NULL,
  active INTEGER NOT NULL
);

INSERT INTO webhook_counts (store_id, total, active)
SELECT store_id, COUNT(*), SUM(active) FROM webhooks GROUP BY store_id;
