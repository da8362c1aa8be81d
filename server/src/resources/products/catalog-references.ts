// References from offers and pricing records to the store's catalog (products, categories).

import { reason } from '../../../../lib/reasons.ts';
import { detail, type ErrorDetail, referenceNotFound } from '../../errors.ts';
import type { Repositories } from '../index.ts';

/** A referenced id and the body path that carried it (`items.1.productId`, `triggerProductIds.0`). */
interface Reference {
  path: string;
  id: string;
}

/** `ids` as references under `path` (`triggerProductIds` → `triggerProductIds.0`, ...). */
export const referencesAt = (path: string, ids: readonly string[] | undefined): Reference[] =>
  (ids ?? []).map((id, index) => ({ path: `${path}.${index}`, id }));

/**
 * Throws 422 REFERENCE_NOT_FOUND naming every product (and category) reference that is not of the store.
 * Another store's id is reported exactly like an unknown one.
 */
export async function requireReferences(
  repositories: Repositories,
  storeId: string,
  products: readonly Reference[],
  categories: readonly Reference[] = [],
): Promise<void> {
  const [knownProducts, knownCategories] = await Promise.all([
    repositories.products.existingProductIds(
      storeId,
      products.map((ref) => ref.id),
    ),
    repositories.categories.existingCategoryIds(
      storeId,
      categories.map((ref) => ref.id),
    ),
  ]);
  const missing: ErrorDetail[] = [
    ...products
      .filter((ref) => !knownProducts.has(ref.id))
      .map((ref) => detail('body', ref.path, reason('product-not-found', { id: ref.id }))),
    ...categories
      .filter((ref) => !knownCategories.has(ref.id))
      .map((ref) => detail('body', ref.path, reason('category-not-found', { id: ref.id }))),
  ];
  if (missing.length > 0) throw referenceNotFound(missing);
}
