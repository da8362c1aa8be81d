/** `stores`, as server/migrations/001_core.sql creates it. */
export interface StoresTable {
  id: string;
  name: string;
  currency: string;
  created_at: string;
}

export interface StoreTables {
  stores: StoresTable;
}
