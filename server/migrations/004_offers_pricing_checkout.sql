-- Offers (kits, gifts, upsells, order bumps), pricing (coupons, discount ranges with tiers, payment-method
-- discounts) and the external checkout's payment links.
-- Product and category references are checked when written (422 REFERENCE_NOT_FOUND) and kept as ids:
-- lists of ids and kit items are JSON text in the order they were sent.

CREATE TABLE kits (
  id TEXT PRIMARY KEY,
  store_id TEXT NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  description TEXT,
  status TEXT NOT NULL,
  price TEXT NOT NULL,
  items TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE INDEX kits_store_created ON kits (store_id, created_at);

CREATE TABLE gifts (
  id TEXT PRIMARY KEY,
  store_id TEXT NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  product_id TEXT NOT NULL,
  active INTEGER NOT NULL,
  min_cart_total TEXT NOT NULL,
  max_quantity INTEGER NOT NULL,
  starts_at TEXT,
  ends_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE INDEX gifts_store_created ON gifts (store_id, created_at);

CREATE TABLE upsells (
  id TEXT PRIMARY KEY,
  store_id TEXT NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  product_id TEXT NOT NULL,
  trigger_product_ids TEXT NOT NULL,
  discount_type TEXT NOT NULL,
  discount_amount TEXT NOT NULL,
  title TEXT NOT NULL,
  description TEXT,
  active INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE INDEX upsells_store_created ON upsells (store_id, created_at);

CREATE TABLE order_bumps (
  id TEXT PRIMARY KEY,
  store_id TEXT NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  description TEXT,
  type TEXT NOT NULL,
  status TEXT NOT NULL,
  product_id TEXT NOT NULL,
  product_variant_id TEXT,
  discount_type TEXT NOT NULL,
  discount_amount TEXT NOT NULL,
  title TEXT NOT NULL,
  subtitle TEXT,
  image TEXT NOT NULL,
  price TEXT NOT NULL,
  discounted_price TEXT NOT NULL,
  auto_add INTEGER NOT NULL,
  required INTEGER NOT NULL,
  max_quantity INTEGER NOT NULL,
  starts_at TEXT,
  ends_at TEXT,
  trigger_product_ids TEXT NOT NULL,
  target_category_ids TEXT NOT NULL,
  min_cart_total TEXT,
  max_cart_total TEXT,
  position INTEGER NOT NULL,
  display_order INTEGER NOT NULL,
  is_standalone INTEGER NOT NULL,
  standalone_settings TEXT,
  button_text TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE INDEX order_bumps_store_created ON order_bumps (store_id, created_at);

CREATE TABLE coupons (
  id TEXT PRIMARY KEY,
  store_id TEXT NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
  code TEXT NOT NULL,
  description TEXT,
  discount_type TEXT NOT NULL,
  discount_amount TEXT NOT NULL,
  min_cart_total TEXT,
  max_uses INTEGER,
  used_count INTEGER NOT NULL,
  starts_at TEXT,
  ends_at TEXT,
  status TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (store_id, code)
);

CREATE INDEX coupons_store_created ON coupons (store_id, created_at);

CREATE TABLE discount_ranges (
  id TEXT PRIMARY KEY,
  store_id TEXT NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  rule_type TEXT NOT NULL,
  applies_to_all_products INTEGER NOT NULL,
  apply_discount_to TEXT,
  item_range_start INTEGER,
  item_range_end INTEGER,
  item_range_order_by TEXT,
  start_at TEXT,
  end_at TEXT,
  active INTEGER NOT NULL,
  priority INTEGER NOT NULL,
  product_ids TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE INDEX discount_ranges_store_created ON discount_ranges (store_id, created_at);

CREATE TABLE discount_range_tiers (
  id TEXT PRIMARY KEY,
  discount_range_id TEXT NOT NULL REFERENCES discount_ranges (id) ON DELETE CASCADE,
  min_value TEXT,
  max_value TEXT,
  min_quantity INTEGER,
  max_quantity INTEGER,
  discount_type TEXT NOT NULL,
  discount_amount TEXT NOT NULL,
  position INTEGER NOT NULL
);

CREATE INDEX discount_range_tiers_range ON discount_range_tiers (discount_range_id, position);

CREATE TABLE payment_discounts (
  id TEXT PRIMARY KEY,
  store_id TEXT NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
  payment_method TEXT NOT NULL,
  percentage TEXT NOT NULL,
  active INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  UNIQUE (store_id, payment_method)
);

CREATE TABLE payment_links (
  id TEXT PRIMARY KEY,
  store_id TEXT NOT NULL REFERENCES stores (id) ON DELETE CASCADE,
  status TEXT NOT NULL,
  items TEXT NOT NULL,
  subtotal TEXT NOT NULL,
  discount TEXT NOT NULL,
  total TEXT NOT NULL,
  currency TEXT NOT NULL,
  coupon_id TEXT,
  customer TEXT,
  success_url TEXT,
  cancel_url TEXT,
  expires_at TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
);

CREATE INDEX payment_links_store ON payment_links (store_id, created_at);
