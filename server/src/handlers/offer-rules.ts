// Rules shared by the offers and pricing handlers: references to the store's catalog and validity windows.
import { detail, type ErrorDetail, referenceNotFound } from '../errors.ts';
import type { Repositories } from '../repositories/index.ts';
import { ruleError, ruleViolation } from '../rules.ts';

/** A referenced id and the body path that carried it (`items.1.productId`, `triggerProductIds.0`). */
export interface Reference {
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
    repositories.products.existing(
      storeId,
      products.map((ref) => ref.id),
    ),
    repositories.categories.existing(
      storeId,
      categories.map((ref) => ref.id),
    ),
  ]);
  const missing: ErrorDetail[] = [
    ...products
      .filter((ref) => !knownProducts.has(ref.id))
      .map((ref) => detail('body', ref.path, `produto não encontrado: ${ref.id}`)),
    ...categories
      .filter((ref) => !knownCategories.has(ref.id))
      .map((ref) => detail('body', ref.path, `categoria não encontrada: ${ref.id}`)),
  ];
  if (missing.length > 0) throw referenceNotFound(missing);
}

/** An end that is set must be later than a start that is set (400 naming the end field). */
export function requireWindow(start: string | null, end: string | null, endPath: string, startPath: string): void {
  if (start !== null && end !== null && Date.parse(end) <= Date.parse(start)) {
    throw ruleError(ruleViolation('offer-window-order', endPath, `deve ser posterior a ${startPath}`));
  }
}

/** A PERCENT discount is at most 100 (checked on the resulting record, so an update cannot slip past it). */
export function requirePercentAtMost100(type: string, amount: number, path: string): void {
  if (type === 'PERCENT' && amount > 100) {
    throw ruleError(ruleViolation('percent-at-most-100', path, 'percentual deve ser no máximo 100'));
  }
}
