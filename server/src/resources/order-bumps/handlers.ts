import type { components } from '../../../../generated/openapi.ts';
import { reason } from '../../../../lib/reasons.ts';
import { now } from '../../domain/clock.ts';
import { newId } from '../../domain/new-id.ts';
import { requirePercentAtMost100, requireWindow } from '../../domain/offer-rules.ts';
import { discountedPrice } from '../../domain/pricing.ts';
import { detail, found, referenceNotFound } from '../../errors.ts';
import { ruleError, ruleViolation } from '../../rules.ts';
import { plainHandlers } from '../crud-handlers.ts';
import { type Deps, type Handlers, ok } from '../operation.ts';
import { referencesAt, requireReferences } from '../products/catalog-references.ts';
import type { OrderBump } from './repository.ts';

type OrderBumpUpdate = components['schemas']['OrderBumpUpdate'];

/** Rules of the resulting bump that need no database: PERCENT ≤ 100, the window, the cart-total bounds. */
function checkBumpRules(bump: OrderBump): void {
  requirePercentAtMost100(bump.discountType, bump.discountAmount, 'discountAmount');
  requireWindow(bump.startsAt, bump.endsAt, 'endsAt', 'startsAt');
  if (bump.minCartTotal !== null && bump.maxCartTotal !== null && bump.maxCartTotal < bump.minCartTotal) {
    throw ruleError(ruleViolation('order-bump-cart-total-order', 'maxCartTotal'));
  }
}

/**
 * Checks the references the body sends (422 naming each bad path) and prices the bump from its product: the
 * variant's price when a variant is offered, else the product's; the discount taken off in exact cents.
 * Returns the product's cover image (null when it has none) for the image default.
 */
async function priceFromCatalog(
  { repositories }: Deps,
  storeId: string,
  bump: OrderBump,
  sent: OrderBumpUpdate,
): Promise<{ price: number; discountedPrice: number; cover: string | null }> {
  await requireReferences(
    repositories,
    storeId,
    [
      ...(sent.productId ? [{ path: 'productId', id: sent.productId }] : []),
      ...referencesAt('triggerProductIds', sent.triggerProductIds),
    ],
    referencesAt('targetCategoryIds', sent.targetCategoryIds),
  );
  const product = await repositories.products.getProductById(storeId, bump.productId);
  // Only an update that leaves productId alone gets here without the product (it was deleted since): the
  // stored prices stay, so such a bump can still be paused or edited.
  if (!product) return { price: bump.price, discountedPrice: bump.discountedPrice, cover: null };
  let price = product.price;
  if (bump.productVariantId !== null) {
    const variant = (await repositories.products.productVariants(product.id)).find(
      (v) => v.id === bump.productVariantId,
    );
    if (!variant) {
      throw referenceNotFound([
        detail('body', 'productVariantId', reason('variant-not-in-product', { id: bump.productVariantId })),
      ]);
    }
    price = variant.price;
  }
  return {
    price,
    discountedPrice: discountedPrice(price, bump.discountType, bump.discountAmount),
    cover: product.media.images[0] ?? null,
  };
}

export const orderBumpHandlers = {
  ...plainHandlers('orderBumps', 'orderBump', {
    listOrderBumps: 'list',
    getOrderBumpById: 'get',
    deleteOrderBump: 'delete',
  }),

  async createOrderBump({ storeId, body }, deps) {
    const at = now();
    // The fields a create may leave out and the contract gives no default: absent means none (null or empty).
    const bump: OrderBump = {
      id: newId(),
      storeId,
      description: null,
      productVariantId: null,
      subtitle: null,
      startsAt: null,
      endsAt: null,
      minCartTotal: null,
      maxCartTotal: null,
      standaloneSettings: null,
      ...body,
      image: '',
      price: 0,
      discountedPrice: 0,
      createdAt: at,
      updatedAt: at,
    };
    checkBumpRules(bump);
    const { price, discountedPrice, cover } = await priceFromCatalog(deps, storeId, bump, body);
    const image = body.image ?? cover;
    if (image === null) throw ruleError(ruleViolation('order-bump-image-required', 'image'));
    const orderBump: OrderBump = { ...bump, image, price, discountedPrice };
    await deps.repositories.orderBumps.createOrderBump(orderBump);
    return { status: 201, body: ok({ orderBump }) };
  },

  async updateOrderBump({ storeId, path, body }, deps) {
    const current = found(await deps.repositories.orderBumps.getOrderBumpById(storeId, path.orderBumpId));
    const productChanged = body.productId !== undefined && body.productId !== current.productId;
    const bump: OrderBump = {
      ...current,
      ...body,
      // A new product without a new variant drops the old product's variant.
      productVariantId:
        body.productVariantId !== undefined ? body.productVariantId : productChanged ? null : current.productVariantId,
      updatedAt: now(),
    };
    checkBumpRules(bump);
    const { price, discountedPrice, cover } = await priceFromCatalog(deps, storeId, bump, body);
    // The image stays unless sent; a bump moved to another product takes that product's cover when it has one.
    const image = body.image ?? (productChanged && cover !== null ? cover : current.image);
    const orderBump: OrderBump = { ...bump, image, price, discountedPrice };
    await deps.repositories.orderBumps.updateOrderBump(orderBump);
    return { status: 200, body: ok({ orderBump }) };
  },
} satisfies Partial<Handlers>;
