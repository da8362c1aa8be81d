import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export interface ApiKeyRecord {
  id: string;
  name: string | null;
  storeIds: string[];
  scopes: string[];
  expiresAt: string | null;
  revokedAt: string | null;
  createdAt: string;
}

export interface CheckoutKeyRecord {
  id: string;
  storeId: string;
  createdAt: string;
}

export interface CredentialsOptions {
  /**
   * Keep API keys read by hash in memory. Only for a store one process owns (the embedded one): revocation
   * through this repository clears the memory, but another process sharing the database could not.
   */
  rememberKeys?: boolean;
  /** Where remembered keys are kept: shared by the pool's repository and each write's, so a revoke clears it. */
  remembered?: Map<string, ApiKeyRecord>;
}

const REMEMBERED_KEYS_MAX = 10_000;

/** API keys and external checkout keys; only hashes of the secrets are stored. */
export function credentialsRepository(
  db: Kysely<Database>,
  { rememberKeys = false, remembered = new Map<string, ApiKeyRecord>() }: CredentialsOptions = {},
) {
  return {
    async createApiKey(key: ApiKeyRecord & { keyHash: string }): Promise<void> {
      await db
        .insertInto('api_keys')
        .values({
          id: key.id,
          key_hash: key.keyHash,
          name: key.name,
          store_ids: JSON.stringify(key.storeIds),
          scopes: JSON.stringify(key.scopes),
          expires_at: key.expiresAt,
          revoked_at: null,
          created_at: key.createdAt,
        })
        .execute();
    },

    async findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
      const known = remembered.get(keyHash);
      if (known) return known;
      const row = await db.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
      if (!row) return undefined;
      const key: ApiKeyRecord = {
        id: row.id,
        name: row.name,
        storeIds: JSON.parse(row.store_ids) as string[],
        scopes: JSON.parse(row.scopes) as string[],
        expiresAt: row.expires_at,
        revokedAt: row.revoked_at,
        createdAt: row.created_at,
      };
      if (rememberKeys) {
        if (remembered.size >= REMEMBERED_KEYS_MAX) remembered.clear();
        remembered.set(keyHash, key);
      }
      return key;
    },

    /** Marks the key revoked; false when no such (unrevoked) key exists. */
    async revokeApiKey(id: string, at: string): Promise<boolean> {
      const result = await db
        .updateTable('api_keys')
        .set({ revoked_at: at })
        .where('id', '=', id)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      // Cleared after the write: a lookup racing the update cannot leave the unrevoked key remembered.
      remembered.clear();
      return Number(result.numUpdatedRows) > 0;
    },

    async createCheckoutKey(key: CheckoutKeyRecord & { keyHash: string }): Promise<void> {
      await db
        .insertInto('checkout_keys')
        .values({
          id: key.id,
          key_hash: key.keyHash,
          store_id: key.storeId,
          revoked_at: null,
          created_at: key.createdAt,
        })
        .execute();
    },

    async findCheckoutKeyByHash(keyHash: string): Promise<CheckoutKeyRecord | undefined> {
      const row = await db
        .selectFrom('checkout_keys')
        .select(['id', 'store_id', 'created_at'])
        .where('key_hash', '=', keyHash)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      return row && { id: row.id, storeId: row.store_id, createdAt: row.created_at };
    },
  };
}

export type CredentialsRepository = ReturnType<typeof credentialsRepository>;
