import type { components } from '../../../../generated/openapi.ts';

/** `kits`, as server/migrations/004_offers_pricing_checkout.sql creates it. */
export interface KitsTable {
  id: string;
  store_id: string;
  name: string;
  description: string | null;
  status: components['schemas']['Kit']['status'];
  price: string;
  items: string;
  created_at: string;
  updated_at: string;
}

export interface KitTables {
  kits: KitsTable;
}
