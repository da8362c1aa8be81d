import { reason } from '../../../../lib/reasons.ts';
import { allScopes, apiKeyForm, checkoutKeyForm } from '../../contract.ts';
import { now } from '../../domain/clock.ts';
import { newId } from '../../domain/new-id.ts';
import { hashSecret, newKey } from '../../domain/secrets.ts';
import { detail, found, referenceNotFound } from '../../errors.ts';
import { ruleError, ruleViolation } from '../../rules.ts';
import { deleted, type Handlers, ok } from '../operation.ts';

/** The keys the admin API issues: v1 API keys and external checkout keys, each shown once. */
export const credentialHandlers = {
  async createApiKey({ body }, { repositories }) {
    const scopes = body.scopes ?? allScopes;
    const storeIds = body.storeIds.map((id) => id.toLowerCase());
    const stores = await repositories.stores.existing(storeIds);
    const missing = storeIds
      .map((id, index) => ({ id, index }))
      .filter(({ id }) => !stores.has(id))
      .map(({ id, index }) => detail('body', `storeIds.${index}`, reason('store-not-found', { id })));
    if (missing.length > 0) throw referenceNotFound(missing);
    const at = now();
    // Compared as instants, whatever offset the caller wrote.
    const expiresAt = body.expiresAt ? new Date(body.expiresAt).toISOString() : null;
    if (expiresAt !== null && expiresAt <= at) {
      throw ruleError(ruleViolation('api-key-expires-in-future', 'expiresAt'));
    }
    const key = newKey(apiKeyForm);
    const apiKey = {
      id: newId(),
      name: body.name ?? null,
      storeIds,
      scopes,
      // Stored as UTC ISO text so that the expiry check compares instants, whatever offset the caller wrote.
      expiresAt,
      createdAt: at,
    };
    await repositories.credentials.createApiKey({ ...apiKey, revokedAt: null, keyHash: hashSecret(key) });
    return { status: 201, body: ok({ apiKey: { ...apiKey, key } }) };
  },

  async revokeApiKey({ path }, { repositories }) {
    return deleted(path.apiKeyId, await repositories.credentials.revokeApiKey(path.apiKeyId, now()));
  },

  async createCheckoutKey({ path }, { repositories }) {
    const store = found(await repositories.stores.find(path.storeId));
    const key = newKey(checkoutKeyForm);
    const checkoutKey = { id: newId(), storeId: store.id, createdAt: now() };
    await repositories.credentials.createCheckoutKey({ ...checkoutKey, keyHash: hashSecret(key) });
    return { status: 201, body: ok({ checkoutKey: { ...checkoutKey, key } }) };
  },
} satisfies Partial<Handlers>;
