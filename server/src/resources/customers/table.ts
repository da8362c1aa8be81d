import type { components } from '../../../../generated/openapi.ts';

/** `customers`, as server/migrations create it: one per document in a store (UNIQUE store_id, document_number). */
export interface CustomersTable {
  id: string;
  store_id: string;
  name: string;
  email: string;
  phone: string | null;
  document_type: components['schemas']['Customer']['documentType'];
  document_number: string;
  created_at: string;
  updated_at: string;
}

export interface CustomerTables {
  customers: CustomersTable;
}
