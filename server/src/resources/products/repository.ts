import { type Kysely, sql } from 'kysely';
import type { components, operations } from '../../../../generated/openapi.ts';
import { flag, json, money, nullableJson, nullableMoney } from '../../db/column-codecs.ts';
import { compiledOnce } from '../../db/compiled-once.ts';
import { FILTER_ONLY_EQUALS } from '../../db/filter-only-equals.ts';
import { containsPattern, type PageRequest, type StoredOf, storeTable } from '../../db/store-table.ts';
import type { Database } from '../index.ts';

type Schemas = components['schemas'];
type Product = Schemas['Product'];
export type Variant = Schemas['VariantSummary'];
type ProductFilters = NonNullable<operations['listProducts']['parameters']['query']>;

const productColumns = {
  price: money,
  discounted_price: nullableMoney,
  cost_price: nullableMoney,
  images: json<string[]>(),
  videos: json<string[]>(),
  documents: json<string[]>(),
  logistics: nullableJson<Schemas['Logistics']>(),
  seo: nullableJson<Schemas['Seo']>(),
  track_inventory: flag,
  featured: flag,
};
type ProductRow = StoredOf<'products', typeof productColumns>;

/** A product's variants, oldest first (offer and payment-link rules read them): compiled once. */
const variantsOfProduct = compiledOnce((db: Kysely<Database>) =>
  db.selectFrom('product_variants').selectAll().where('product_id', '=', '').orderBy('created_at').orderBy('id'),
);

/**
 * getProductById's one read, on every product GET: the product and its variants (oldest first) in one statement,
 * a row per variant (one with null variant columns when it has none), compiled once. One round trip instead of
 * two is what a GET costs most on PostgreSQL.
 */
const productWithVariants = compiledOnce((db: Kysely<Database>) =>
  db
    .selectFrom('products')
    .leftJoin('product_variants as variant', 'variant.product_id', 'products.id')
    .selectAll('products')
    .select([
      'variant.id as variant_id',
      'variant.title as variant_title',
      'variant.sku as variant_sku',
      'variant.price as variant_price',
      'variant.stock as variant_stock',
      'variant.status as variant_status',
    ])
    .where('products.store_id', FILTER_ONLY_EQUALS, '')
    .where('products.id', '=', '')
    .orderBy('variant.created_at')
    .orderBy('variant.id'),
);

/** A product as stored: the read shape plus the write-only fields of the create body. */
export type ProductRecord = Omit<ProductRow, 'images' | 'videos' | 'documents'> & { media: Schemas['MediaRead'] };

/** The read shape of every product response (getProductById adds `variants`). */
export function productOf({ trackInventory: _trackInventory, seo: _seo, ...product }: ProductRecord): Product {
  return product;
}

const withMedia = ({ images, videos, documents, ...product }: ProductRow): ProductRecord => ({
  ...product,
  media: { images, videos, documents },
});
const withoutMedia = ({ media, ...product }: ProductRecord): ProductRow => ({ ...product, ...media });

type ProductWithVariantsRow = Awaited<ReturnType<typeof productWithVariants>>[number];

/** The rows of `productWithVariants` as the product and its variants (none when its one row has no variant). */
function productAndVariants(
  rows: ProductWithVariantsRow[],
  decode: (row: Omit<ProductWithVariantsRow, `variant_${string}`>) => ProductRecord,
): { product: ProductRecord; variants: Variant[] } | undefined {
  const [first] = rows;
  if (!first) return undefined;
  const {
    variant_id: _id,
    variant_title: _title,
    variant_sku: _sku,
    variant_price: _price,
    variant_stock: _stock,
    variant_status: _status,
    ...productRow
  } = first;
  const variants = rows.flatMap(({ variant_id: id, variant_title: title, variant_sku: sku, ...rest }) => {
    const { variant_price: price, variant_stock: stock, variant_status: status } = rest;
    if (id === null || title === null || price === null || stock === null || status === null) return [];
    return [{ id, title, sku, price: money.fromColumn(price), stock, status }];
  });
  return { product: decode(productRow), variants };
}

export function productsRepository(db: Kysely<Database>) {
  const products = storeTable(db, 'products', productColumns);
  const variants = storeTable(db, 'product_variants', { price: money });

  return {
    /** A slug already used in the store throws `DuplicateRecord`, or fails the COMMIT (PostgreSQL: answered later). */
    createProduct: (product: ProductRecord) => products.insertAnsweredLater(withoutMedia(product)),

    async getProductById(storeId: string, id: string): Promise<ProductRecord | undefined> {
      const row = await products.find(storeId, id);
      return row && withMedia(row);
    },

    /** A slug already used in the store throws `DuplicateRecord`. */
    updateProduct: (product: ProductRecord) => products.replace(withoutMedia(product)),

    deleteProduct: (storeId: string, id: string) => products.delete(storeId, id),

    async listProducts(storeId: string, filters: ProductFilters, request: PageRequest) {
      const { records, pagination } = await products.page(storeId, request, (query) => {
        let filtered = query;
        if (filters.status) filtered = filtered.where('products.status', '=', filters.status);
        if (filters.type) filtered = filtered.where('products.type', '=', filters.type);
        if (filters.search)
          filtered = filtered.where(sql`lower(products.name)`, 'like', containsPattern(filters.search));
        const { categoryId } = filters;
        if (categoryId) {
          filtered = filtered.where((eb) =>
            eb.exists(
              eb
                .selectFrom('category_products')
                .select('category_products.product_id')
                .whereRef('category_products.product_id', '=', 'products.id')
                .where('category_products.category_id', '=', categoryId),
            ),
          );
        }
        return filtered;
      });
      return { products: records.map(withMedia), pagination };
    },

    /** Ids of those given that are products of the store (offer rules and category links refer to them). */
    async existingProductIds(storeId: string, ids: readonly string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .selectFrom('products')
        .select('id')
        .where('store_id', FILTER_ONLY_EQUALS, storeId)
        .where('id', 'in', [...ids])
        .execute();
      return new Set(rows.map((row) => row.id));
    },

    /** The store a product belongs to (createVariant addresses products without a store header). */
    async productOwnerStore(id: string): Promise<string | undefined> {
      const row = await db.selectFrom('products').select('store_id').where('id', '=', id).executeTakeFirst();
      return row?.store_id;
    },

    /** The product with the variants getProductById shows, in one read. */
    getProductByIdWithVariants: async (storeId: string, id: string) =>
      productAndVariants(await productWithVariants(db, [storeId, id]), (row) => withMedia(products.decode(row))),

    /** A product's variants, oldest first. */
    async productVariants(productId: string): Promise<Variant[]> {
      const rows = await variantsOfProduct(db, [productId]);
      return rows.map((row) => {
        const { storeId: _store, productId: _product, createdAt: _created, ...variant } = variants.decode(row);
        return variant;
      });
    },

    createVariant: (storeId: string, productId: string, variant: Variant, createdAt: string) =>
      variants.insert({ ...variant, storeId, productId, createdAt }),
  };
}
