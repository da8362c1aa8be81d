// Row types of the tables, as the migrations in server/migrations create them.
// Column conventions: ids, timestamps, money and JSON are strings; flags are 0/1 integers.

export interface StoresTable {
  id: string;
  name: string;
  currency: string;
  created_at: string;
}

export interface ApiKeysTable {
  id: string;
  key_hash: string;
  name: string | null;
  store_ids: string;
  scopes: string;
  expires_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

export interface CheckoutKeysTable {
  id: string;
  key_hash: string;
  store_id: string;
  revoked_at: string | null;
  created_at: string;
}

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

export interface ProductsTable {
  id: string;
  store_id: string;
  name: string;
  slug: string;
  type: string;
  status: string;
  price: string;
  discounted_price: string | null;
  cost_price: string | null;
  currency: string;
  images: string;
  videos: string;
  documents: string;
  stock: number;
  track_inventory: number;
  sku: string | null;
  barcode: string | null;
  description: string;
  short_description: string | null;
  logistics: string | null;
  featured: number;
  seo: string | null;
  created_at: string;
  updated_at: string;
}

export interface ProductVariantsTable {
  id: string;
  store_id: string;
  product_id: string;
  title: string;
  sku: string | null;
  price: string;
  stock: number;
  status: string;
  created_at: string;
}

export interface CategoriesTable {
  id: string;
  store_id: string;
  name: string;
  slug: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

export interface CategoryProductsTable {
  category_id: string;
  product_id: string;
  created_at: string;
}

export interface Database {
  stores: StoresTable;
  api_keys: ApiKeysTable;
  checkout_keys: CheckoutKeysTable;
  rate_limits: RateLimitsTable;
  idempotency_keys: IdempotencyKeysTable;
  products: ProductsTable;
  product_variants: ProductVariantsTable;
  categories: CategoriesTable;
  category_products: CategoryProductsTable;
}
