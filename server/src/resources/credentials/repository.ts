import type { Kysely } from 'kysely';
import { json } from '../../db/column-codecs.ts';
import { announce } from '../../db/pg-listener.ts';
import type { Database } from '../index.ts';
import {
  API_KEY_REVOKED_CHANNEL,
  forgetRememberedKeys,
  keysMayBeRemembered,
  revocationsSoFar,
} from './key-revocations.ts';

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
   * How long an API key read by hash is kept in memory (0: never). Revoking through any repository of the process
   * forgets every remembered key at once; so does a revoke announced by another instance (`announceRevokes`),
   * and this lifetime bounds the rest: a revoke written to the database by other means.
   */
  rememberKeysMs?: number;
  /** Announce each revoke on `API_KEY_REVOKED_CHANNEL` (PostgreSQL, at commit), for the other instances. */
  announceRevokes?: boolean;
  /** The clock the lifetime is read from (tests move it). */
  now?: () => number;
}

const REMEMBERED_KEYS_MAX = 10_000;

/** API keys, read by hash and remembered for `rememberKeysMs`; a revoke forgets every remembered key. */
function apiKeys(
  db: Kysely<Database>,
  { rememberKeysMs = 0, announceRevokes = false, now = Date.now }: CredentialsOptions,
) {
  const remembered = new Map<string, { key: ApiKeyRecord; until: number; revocations: number }>();
  return {
    async createApiKey(key: ApiKeyRecord & { keyHash: string }): Promise<void> {
      await db
        .insertInto('api_keys')
        .values({
          id: key.id,
          key_hash: key.keyHash,
          name: key.name,
          store_ids: json<string[]>().toColumn(key.storeIds),
          scopes: json<string[]>().toColumn(key.scopes),
          expires_at: key.expiresAt,
          revoked_at: null,
          created_at: key.createdAt,
        })
        .execute();
    },

    async findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | undefined> {
      const known = remembered.get(keyHash);
      if (known && known.revocations === revocationsSoFar() && known.until > now()) return known.key;
      const seen = revocationsSoFar();
      const row = await db.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
      if (!row) return undefined;
      const key: ApiKeyRecord = {
        id: row.id,
        name: row.name,
        storeIds: json<string[]>().fromColumn(row.store_ids),
        scopes: json<string[]>().fromColumn(row.scopes),
        expiresAt: row.expires_at,
        revokedAt: row.revoked_at,
        createdAt: row.created_at,
      };
      if (rememberKeysMs > 0 && keysMayBeRemembered()) {
        if (remembered.size >= REMEMBERED_KEYS_MAX) remembered.clear();
        remembered.set(keyHash, { key, until: now() + rememberKeysMs, revocations: seen });
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
      if (announceRevokes) await announce(db, API_KEY_REVOKED_CHANNEL, id);
      // After the write: a lookup racing the update remembers under the old count, so is not believed.
      forgetRememberedKeys();
      remembered.clear();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}

/** The external checkout keys of a store. */
function checkoutKeys(db: Kysely<Database>) {
  return {
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

/** API keys and external checkout keys; only hashes of the secrets are stored. */
export function credentialsRepository(db: Kysely<Database>, options: CredentialsOptions = {}) {
  return { ...apiKeys(db, options), ...checkoutKeys(db) };
}

export type CredentialsRepository = ReturnType<typeof credentialsRepository>;
