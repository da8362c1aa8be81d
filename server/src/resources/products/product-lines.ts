import { reason } from '../../../../lib/reasons.ts';
import { detail, type ErrorDetail, referenceNotFound } from '../../errors.ts';
import type { Deps } from '../operation.ts';
import type { ProductRecord, Variant } from './repository.ts';

/** What a line of an order or cart takes from the store's product (and its variant, when one is chosen). */
interface ProductLine {
  productId: string;
  variantId: string | null;
  name: string;
  /** The selling price: the variant's, else the product's promotional price, else its price. */
  price: number;
  /** The cover image, or null when the product has none. */
  image: string | null;
}

interface LineReference {
  productId?: string | undefined;
  variantId?: string | null | undefined;
}

const productLine = (product: ProductRecord, variant: Variant | undefined): ProductLine => ({
  productId: product.id,
  variantId: variant?.id ?? null,
  name: variant ? `${product.name} - ${variant.title}` : product.name,
  price: variant ? variant.price : (product.discountedPrice ?? product.price),
  image: product.media.images[0] ?? null,
});

/**
 * Looks up the product (and variant) of every line that names one, in the store. A product that is not the
 * store's, or a variant that is not the product's, is 422 REFERENCE_NOT_FOUND naming each such line.
 * Lines without `productId` answer undefined.
 */
export async function productLines(
  { repositories }: Deps,
  storeId: string,
  lines: readonly LineReference[],
): Promise<(ProductLine | undefined)[]> {
  const products = new Map<string, ProductRecord | undefined>();
  const variants = new Map<string, Variant[]>();
  const problems: ErrorDetail[] = [];
  const resolved: (ProductLine | undefined)[] = [];
  for (const [index, line] of lines.entries()) {
    if (line.productId === undefined) {
      resolved.push(undefined);
      continue;
    }
    const productId = line.productId.toLowerCase();
    if (!products.has(productId))
      products.set(productId, await repositories.products.getProductById(storeId, productId));
    const product = products.get(productId);
    if (!product) {
      problems.push(detail('body', `items.${index}.productId`, reason('product-not-found', { id: line.productId })));
      resolved.push(undefined);
      continue;
    }
    let variant: Variant | undefined;
    if (line.variantId) {
      const variantId = line.variantId.toLowerCase();
      if (!variants.has(product.id)) variants.set(product.id, await repositories.products.productVariants(product.id));
      variant = variants.get(product.id)?.find((candidate) => candidate.id === variantId);
      if (!variant) {
        problems.push(detail('body', `items.${index}.variantId`, reason('variant-not-found', { id: line.variantId })));
      }
    }
    resolved.push(productLine(product, variant));
  }
  if (problems.length > 0) throw referenceNotFound(problems);
  return resolved;
}
