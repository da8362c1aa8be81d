-- Orders with their items and tracking timeline, customers (grouped by document), leads and abandoned carts.
-- Same portable subset as 001: ids, timestamps (ISO 8601 UTC), money (exact decimal text), coordinates and JSON
-- are TEXT; flags are INTEGER 0/1.

CREATE TABLE customers (
  id TEXT PRIMARY KEY,
  store_id TEXT NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  email TEXT NOT NULL,
  phone TEXT,
  document_type TEXT NOT NULL,
  document_number TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (store_id, document_number)
);

CREATE INDEX customers_store_created ON customers (store_id, created_at);

CREATE TABLE orders (
  id TEXT PRIMARY KEY,
  store_id TEXT NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
  status TEXT NOT NULL,
  total TEXT NOT NULL,
  subtotal TEXT NOT NULL,
  discount TEXT,
  currency TEXT NOT NULL,
  payment_method TEXT NOT NULL,
  installments INTEGER NOT NULL,
  notes TEXT,
  customer TEXT NOT NULL,
  customer_document_number TEXT NOT NULL,
  shipping_address TEXT NOT NULL,
  shipping TEXT NOT NULL,
  tracking_code TEXT,
  tracking_url TEXT,
  tracking_status TEXT,
  tracking_status_label TEXT,
  tracking_updated_at TEXT,
  tags TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE INDEX orders_store_created ON orders (store_id, created_at);

CREATE INDEX orders_store_document ON orders (store_id, customer_document_number);

CREATE TABLE order_items (
  id TEXT PRIMARY KEY,
  order_id TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  product_id TEXT,
  variant_id TEXT,
  name TEXT NOT NULL,
  quantity INTEGER NOT NULL,
  price TEXT NOT NULL,
  image TEXT NOT NULL,
  UNIQUE (order_id, position)
);

CREATE TABLE tracking_events (
  id TEXT PRIMARY KEY,
  store_id TEXT NOT NULL,
  order_id TEXT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  status TEXT NOT NULL,
  label TEXT NOT NULL,
  previous_status TEXT,
  previous_label TEXT,
  occurred_at TEXT NOT NULL,
  location_label TEXT NOT NULL,
  latitude TEXT NOT NULL,
  longitude TEXT NOT NULL,
  carrier TEXT NOT NULL,
  tracking_code TEXT NOT NULL,
  source TEXT NOT NULL,
  provider TEXT NOT NULL,
  replayed INTEGER NOT NULL,
  retry_count INTEGER NOT NULL,
  processing_state TEXT NOT NULL,
  created_at TEXT NOT NULL,
  UNIQUE (order_id, position)
);

CREATE TABLE leads (
  id TEXT PRIMARY KEY,
  store_id TEXT NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
  name TEXT,
  email TEXT NOT NULL,
  phone TEXT,
  source TEXT NOT NULL,
  tags TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE INDEX leads_store_created ON leads (store_id, created_at);

CREATE TABLE abandoned_carts (
  id TEXT PRIMARY KEY,
  store_id TEXT NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
  customer TEXT NOT NULL,
  items TEXT NOT NULL,
  subtotal TEXT NOT NULL,
  currency TEXT NOT NULL,
  recovery_url TEXT NOT NULL,
  recovered INTEGER NOT NULL,
  recovered_order_id TEXT,
  abandoned_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE INDEX abandoned_carts_store_created ON abandoned_carts (store_id, created_at);
