/** `api_keys`: only the sha256 of each key is kept; store ids and scopes are JSON arrays. */
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

/** `checkout_keys`: the external checkout's keys, one store each. */
export interface CheckoutKeysTable {
  id: string;
  key_hash: string;
  store_id: string;
  revoked_at: string | null;
  created_at: string;
}

export interface CredentialTables {
  api_keys: ApiKeysTable;
  checkout_keys: CheckoutKeysTable;
}
