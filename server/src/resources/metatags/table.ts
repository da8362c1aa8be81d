import type { components } from '../../../../generated/openapi.ts';

/** `metatags`, as server/migrations/003_webhooks_automations.sql creates it. */
export interface MetatagsTable {
  id: string;
  store_id: string;
  name: string;
  content: string;
  placement: components['schemas']['Metatag']['placement'];
  pages: string;
  active: number;
  created_at: string;
  updated_at: string;
}

export interface MetatagTables {
  metatags: MetatagsTable;
}
