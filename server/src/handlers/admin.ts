import { randomUUID } from 'node:crypto';
import { allScopes } from '../contract.ts';
import { now } from '../domain/clock.ts';
import { API_KEY_PREFIX, CHECKOUT_KEY_PREFIX, hashSecret, newSecret } from '../domain/secrets.ts';
import { detail, notFound, referenceNotFound } from '../errors.ts';
import { type Handlers, ok } from '../resources/operation.ts';

/** The admin operations of the store panel; orders, tracking, leads, carts and events live with their groups. */
export const adminHandlers: Pick<
  Handlers,
  'createStore' | 'createApiKey' | 'revokeApiKey' | 'createCheckoutKey' | 'createVariant'
> = {
  async createStore({ body }, { repositories }) {
    const store = await repositories.stores.create({
      id: randomUUID(),
      name: body.name,
      currency: body.currency ?? 'BRL',
      createdAt: now(),
    });
    return { status: 201, body: ok({ store }) };
  },

  async createApiKey({ body }, { repositories }) {
    const scopes = body.scopes ?? allScopes;
    const storeIds = body.storeIds.map((id) => id.toLowerCase());
    const stores = await repositories.stores.existing(storeIds);
    const missing = storeIds
      .map((id, index) => ({ id, index }))
      .filter(({ id }) => !stores.has(id))
      .map(({ id, index }) => detail('body', `storeIds.${index}`, `loja não encontrada: ${id}`));
    if (missing.length > 0) throw referenceNotFound(missing);
    const key = newSecret(API_KEY_PREFIX);
    const apiKey = {
      id: randomUUID(),
      name: body.name ?? null,
      storeIds,
      scopes,
      // Stored as UTC ISO text so that the expiry check compares instants, whatever offset the caller wrote.
      expiresAt: body.expiresAt ? new Date(body.expiresAt).toISOString() : null,
      createdAt: now(),
    };
    await repositories.credentials.createApiKey({ ...apiKey, revokedAt: null, keyHash: hashSecret(key) });
    return { status: 201, body: ok({ apiKey: { ...apiKey, key } }) };
  },

  async revokeApiKey({ path }, { repositories }) {
    if (!(await repositories.credentials.revokeApiKey(path.apiKeyId, now()))) throw notFound();
    return { status: 204, body: undefined };
  },

  async createCheckoutKey({ path }, { repositories }) {
    const store = await repositories.stores.find(path.storeId);
    if (!store) throw notFound();
    const key = newSecret(CHECKOUT_KEY_PREFIX);
    const checkoutKey = { id: randomUUID(), storeId: store.id, createdAt: now() };
    await repositories.credentials.createCheckoutKey({ ...checkoutKey, keyHash: hashSecret(key) });
    return { status: 201, body: ok({ checkoutKey: { ...checkoutKey, key } }) };
  },

  async createVariant({ path, body }, { repositories }) {
    const owner = await repositories.products.productOwnerStore(path.productId);
    if (!owner) throw notFound();
    const product = await repositories.products.getProductById(owner, path.productId);
    if (!product) throw notFound();
    const variant = {
      id: randomUUID(),
      title: body.title,
      sku: body.sku ?? null,
      price: body.price ?? product.price,
      stock: body.stock ?? 0,
      status: body.status ?? 'ACTIVE',
    };
    await repositories.products.createVariant(owner, product.id, variant, now());
    return { status: 201, body: ok({ variant }) };
  },
};
