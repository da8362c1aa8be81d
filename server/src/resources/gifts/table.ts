/** `gifts`, as server/migrations/004_offers_pricing_checkout.sql creates it. */
export interface GiftsTable {
  id: string;
  store_id: string;
  name: string;
  product_id: string;
  active: number;
  min_cart_total: string;
  max_quantity: number;
  starts_at: string | null;
  ends_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface GiftTables {
  gifts: GiftsTable;
}
