/** `leads`, as server/migrations create it. */
export interface LeadsTable {
  id: string;
  store_id: string;
  name: string | null;
  email: string;
  phone: string | null;
  source: string;
  tags: string;
  created_at: string;
  updated_at: string;
}

export interface LeadTables {
  leads: LeadsTable;
}
