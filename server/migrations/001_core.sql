-- Stores, credentials, request bookkeeping, products and categories.
-- Written in the SQL both engines share: ids, timestamps (ISO 8601 UTC), money (exact decimal text)
-- and JSON are TEXT; flags are INTEGER 0/1.

CREATE TABLE stores (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  currency TEXT NOT NULL,
  created_at TEXT NOT NULL
);

CREATE TABLE api_keys (
  id TEXT PRIMARY KEY,
  key_hash TEXT NOT NULL UNIQUE,
  name TEXT,
  store_ids TEXT NOT NULL,
  scopes TEXT NOT NULL,
  expires_at TEXT,
  revoked_at TEXT,
  created_at TEXT NOT NULL
);

CREATE TABLE checkout_keys (
  id TEXT PRIMARY KEY,
  key_hash TEXT NOT NULL UNIQUE,
  store_id TEXT NOT NULL REFERENCES stores (id),
  revoked_at TEXT,
  created_at TEXT NOT NULL
);

CREATE TABLE rate_limits (
  bucket TEXT PRIMARY KEY,
  window_start INTEGER NOT NULL,
  hits INTEGER NOT NULL
);

CREATE TABLE idempotency_keys (
  store_id TEXT NOT NULL,
  idempotency_key TEXT NOT NULL,
  operation_id TEXT NOT NULL,
  request_hash TEXT NOT NULL,
  state TEXT NOT NULL,
  status INTEGER,
  body TEXT,
  created_at TEXT NOT NULL,
  PRIMARY KEY (store_id, idempotency_key)
);

CREATE TABLE products (
  id TEXT PRIMARY KEY,
  store_id TEXT NOT NULL REFERENCES stores (id),
  name TEXT NOT NULL,
  slug TEXT NOT NULL,
  type TEXT NOT NULL,
  status TEXT NOT NULL,
  price TEXT NOT NULL,
  discounted_price TEXT,
  cost_price TEXT,
  currency TEXT NOT NULL,
  images TEXT NOT NULL,
  videos TEXT NOT NULL,
  documents TEXT NOT NULL,
  stock INTEGER NOT NULL,
  track_inventory INTEGER NOT NULL,
  sku TEXT,
  barcode TEXT,
  description TEXT NOT NULL,
  short_description TEXT,
  logistics TEXT,
  featured INTEGER NOT NULL,
  seo TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (store_id, slug)
);

CREATE INDEX products_store_created ON products (store_id, created_at);

CREATE TABLE product_variants (
  id TEXT PRIMARY KEY,
  store_id TEXT NOT NULL,
  product_id TEXT NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  title TEXT NOT NULL,
  sku TEXT,
  price TEXT NOT NULL,
  stock INTEGER NOT NULL,
  status TEXT NOT NULL,
  created_at TEXT NOT NULL
);

CREATE INDEX product_variants_product ON product_variants (product_id);

CREATE TABLE categories (
  id TEXT PRIMARY KEY,
  store_id TEXT NOT NULL REFERENCES stores (id),
  name TEXT NOT NULL,
  slug TEXT NOT NULL,
  description TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (store_id, slug)
);

CREATE TABLE category_products (
  category_id TEXT NOT NULL REFERENCES categories (id) ON DELETE CASCADE,
  product_id TEXT NOT NULL REFERENCES products (id) ON DELETE CASCADE,
  created_at TEXT NOT NULL,
  PRIMARY KEY (category_id, product_id)
);

CREATE INDEX category_products_product ON category_products (product_id);
