import type { components } from '../../../../generated/openapi.ts';
import { reason } from '../../../../lib/reasons.ts';
import { now } from '../../domain/clock.ts';
import { newId } from '../../domain/new-id.ts';
import { slugify } from '../../domain/slug.ts';
import { duplicateAs, found, notFound } from '../../errors.ts';
import { ruleError, ruleViolation } from '../../rules.ts';
import { deleted, type Handlers, ok } from '../operation.ts';
import { type ProductRecord, productOf } from './repository.ts';

type ProductCreate = components['schemas']['ProductCreate'];

/** The rules the schema cannot state, checked on the product as it would be stored. */
function checkProductRules(product: ProductRecord): void {
  if (product.type === 'PHYSICAL' && product.logistics === null) {
    throw ruleError(ruleViolation('product-logistics-when-physical', 'logistics'));
  }
  if (product.discountedPrice !== null && product.discountedPrice >= product.price) {
    throw ruleError(ruleViolation('product-discounted-below-price', 'discountedPrice'));
  }
}

const slugTaken = (product: ProductRecord) => ['slug', reason('slug-taken', { slug: product.slug })] as const;

function newProduct(storeId: string, currency: string, body: ProductCreate): ProductRecord {
  const at = now();
  return {
    id: newId(),
    storeId,
    name: body.name,
    slug: slugify(body.name),
    type: body.type,
    status: body.status,
    price: body.price,
    discountedPrice: body.discountedPrice ?? null,
    costPrice: body.costPrice ?? null,
    currency,
    media: {
      images: body.media?.images ?? [],
      videos: body.media?.videos ?? [],
      documents: body.media?.documents ?? [],
    },
    stock: body.stock?.quantity ?? 0,
    sku: body.sku ?? null,
    barcode: body.barcode ?? null,
    description: body.description ?? body.name,
    shortDescription: body.shortDescription ?? body.name,
    logistics: body.logistics ?? null,
    featured: false,
    createdAt: at,
    updatedAt: at,
    trackInventory: body.stock?.trackInventory ?? false,
    seo: body.seo ?? null,
  };
}

export const productHandlers = {
  async listProducts({ storeId, query }, { repositories }) {
    const { products, pagination } = await repositories.products.listProducts(storeId, query, query);
    return { status: 200, body: ok({ products: products.map(productOf), pagination }) };
  },

  async createProduct({ storeId, body }, { repositories, events }) {
    // The store exists: authentication let the request address it.
    const store = found(await repositories.stores.find(storeId));
    const product = newProduct(storeId, store.currency, body);
    checkProductRules(product);
    await duplicateAs(repositories.products.createProduct(product), ...slugTaken(product));
    await events.emit(storeId, 'PRODUCT_CREATED', { product: productOf(product) });
    return { status: 201, body: ok({ product: productOf(product) }) };
  },

  async getProductById({ storeId, path }, { repositories }) {
    const { product, variants } = found(
      await repositories.products.getProductByIdWithVariants(storeId, path.productId),
    );
    return { status: 200, body: ok({ product: { ...productOf(product), variants } }) };
  },

  async updateProduct({ storeId, path, body }, { repositories, events }) {
    const current = found(await repositories.products.getProductById(storeId, path.productId));
    const { stock, media, slug, ...fields } = body;
    const updated: ProductRecord = {
      ...current,
      ...fields,
      slug: slug ?? (body.name !== undefined ? slugify(body.name) : current.slug),
      media: media
        ? { images: media.images, videos: media.videos ?? [], documents: media.documents ?? [] }
        : current.media,
      stock: stock?.quantity ?? current.stock,
      trackInventory: stock?.trackInventory ?? current.trackInventory,
      updatedAt: now(),
    };
    checkProductRules(updated);
    await duplicateAs(repositories.products.updateProduct(updated), ...slugTaken(updated));
    await events.emit(storeId, 'PRODUCT_UPDATED', { product: productOf(updated) });
    return { status: 200, body: ok({ product: productOf(updated) }) };
  },

  async deleteProduct({ storeId, path }, { repositories, events }) {
    const product = await repositories.products.getProductById(storeId, path.productId);
    if (!product || !(await repositories.products.deleteProduct(storeId, product.id))) throw notFound();
    await events.emit(storeId, 'PRODUCT_DELETED', { product: productOf(product) });
    return deleted(product.id, true);
  },
} satisfies Partial<Handlers>;
