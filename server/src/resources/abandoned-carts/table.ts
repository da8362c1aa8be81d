/** `abandoned_carts`, as server/migrations create it. */
export interface AbandonedCartsTable {
  id: string;
  store_id: string;
  customer: string;
  items: string;
  subtotal: string;
  currency: string;
  recovery_url: string;
  recovered: number;
  recovered_order_id: string | null;
  abandoned_at: string;
  created_at: string;
  updated_at: string;
}

export interface AbandonedCartTables {
  abandoned_carts: AbandonedCartsTable;
}
