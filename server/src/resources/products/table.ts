import type { components } from '../../../../generated/openapi.ts';

type Schemas = components['schemas'];

/** `products`, as server/migrations/001_core.sql creates it. */
export interface ProductsTable {
  id: string;
  store_id: string;
  name: string;
  slug: string;
  type: Schemas['ProductType'];
  status: Schemas['ProductStatus'];
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

/** `product_variants`: the variants the admin API adds to a product. */
export interface ProductVariantsTable {
  id: string;
  store_id: string;
  product_id: string;
  title: string;
  sku: string | null;
  price: string;
  stock: number;
  status: Schemas['VariantSummary']['status'];
  created_at: string;
}

export interface ProductTables {
  products: ProductsTable;
  product_variants: ProductVariantsTable;
}
