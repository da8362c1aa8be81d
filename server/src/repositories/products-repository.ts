import { type Kysely, type Selectable, sql } from 'kysely';
import type { components } from '../../../generated/openapi.ts';
import type { Database, ProductsTable } from '../db/schema.ts';
import {
  flag,
  flagColumn,
  json,
  jsonColumn,
  money,
  moneyColumn,
  nullableJson,
  nullableJsonColumn,
  nullableMoney,
  nullableMoneyColumn,
} from './columns.ts';
import { containsPattern, type PageRequest, pageOf } from './pagination.ts';

type Schemas = components['schemas'];
export type Product = Schemas['Product'];
export type Variant = Schemas['VariantSummary'];

/** A product as stored: the read shape plus the write-only fields of the create body. */
export interface ProductRecord extends Omit<Product, 'variants'> {
  trackInventory: boolean;
  seo: Schemas['Seo'] | null;
}

export interface ProductFilters {
  status?: Schemas['ProductStatus'] | undefined;
  type?: Schemas['ProductType'] | undefined;
  categoryId?: string | undefined;
  search?: string | undefined;
}

function toRow(product: ProductRecord): Selectable<ProductsTable> {
  return {
    id: product.id,
    store_id: product.storeId,
    name: product.name,
    slug: product.slug,
    type: product.type,
    status: product.status,
    price: moneyColumn(product.price),
    discounted_price: nullableMoneyColumn(product.discountedPrice),
    cost_price: nullableMoneyColumn(product.costPrice),
    currency: product.currency,
    images: jsonColumn(product.media.images),
    videos: jsonColumn(product.media.videos),
    documents: jsonColumn(product.media.documents),
    stock: product.stock,
    track_inventory: flagColumn(product.trackInventory),
    sku: product.sku,
    barcode: product.barcode,
    description: product.description,
    short_description: product.shortDescription,
    logistics: nullableJsonColumn(product.logistics),
    featured: flagColumn(product.featured),
    seo: nullableJsonColumn(product.seo),
    created_at: product.createdAt,
    updated_at: product.updatedAt,
  };
}

function toRecord(row: Selectable<ProductsTable>): ProductRecord {
  return {
    id: row.id,
    storeId: row.store_id,
    name: row.name,
    slug: row.slug,
    type: row.type as Schemas['ProductType'],
    status: row.status as Schemas['ProductStatus'],
    price: money(row.price),
    discountedPrice: nullableMoney(row.discounted_price),
    costPrice: nullableMoney(row.cost_price),
    currency: row.currency,
    media: { images: json(row.images), videos: json(row.videos), documents: json(row.documents) },
    stock: row.stock,
    sku: row.sku,
    barcode: row.barcode,
    description: row.description,
    shortDescription: row.short_description,
    logistics: nullableJson(row.logistics),
    featured: flag(row.featured),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    trackInventory: flag(row.track_inventory),
    seo: nullableJson(row.seo),
  };
}

/** The read shape of every product response (the by-id read adds `variants`). */
export function productOf({ trackInventory: _trackInventory, seo: _seo, ...product }: ProductRecord): Product {
  return product;
}

export function productsRepository(db: Kysely<Database>) {
  return {
    async insert(product: ProductRecord): Promise<void> {
      await db.insertInto('products').values(toRow(product)).execute();
    },

    async find(storeId: string, id: string): Promise<ProductRecord | undefined> {
      const row = await db
        .selectFrom('products')
        .selectAll()
        .where('store_id', '=', storeId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row && toRecord(row);
    },

    async replace(product: ProductRecord): Promise<void> {
      const { id, store_id, created_at: _created, ...changes } = toRow(product);
      await db.updateTable('products').set(changes).where('store_id', '=', store_id).where('id', '=', id).execute();
    },

    async delete(storeId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom('products')
        .where('store_id', '=', storeId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async list(storeId: string, filters: ProductFilters, request: PageRequest) {
      let query = db.selectFrom('products').where('products.store_id', '=', storeId);
      if (filters.status) query = query.where('products.status', '=', filters.status);
      if (filters.type) query = query.where('products.type', '=', filters.type);
      if (filters.search) query = query.where(sql`lower(products.name)`, 'like', containsPattern(filters.search));
      if (filters.categoryId) {
        const categoryId = filters.categoryId;
        query = query.where((eb) =>
          eb.exists(
            eb
              .selectFrom('category_products')
              .select('category_products.product_id')
              .whereRef('category_products.product_id', '=', 'products.id')
              .where('category_products.category_id', '=', categoryId),
          ),
        );
      }
      const counted = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
      const page = pageOf(request, Number(counted?.n ?? 0));
      const rows = await query
        .selectAll('products')
        .orderBy('products.created_at', 'desc')
        .orderBy('products.id')
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return { records: rows.map(toRecord), page };
    },

    /** Ids of those given that are products of the store. */
    async existing(storeId: string, ids: readonly string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .selectFrom('products')
        .select('id')
        .where('store_id', '=', storeId)
        .where('id', 'in', [...ids])
        .execute();
      return new Set(rows.map((row) => row.id));
    },

    /** The store a product belongs to (the admin API addresses products without a store header). */
    async ownerStore(id: string): Promise<string | undefined> {
      const row = await db.selectFrom('products').select('store_id').where('id', '=', id).executeTakeFirst();
      return row?.store_id;
    },

    async variants(productId: string): Promise<Variant[]> {
      const rows = await db
        .selectFrom('product_variants')
        .selectAll()
        .where('product_id', '=', productId)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map((row) => ({
        id: row.id,
        title: row.title,
        sku: row.sku,
        price: money(row.price),
        stock: row.stock,
        status: row.status as Variant['status'],
      }));
    },

    async addVariant(storeId: string, productId: string, variant: Variant, createdAt: string): Promise<void> {
      await db
        .insertInto('product_variants')
        .values({
          id: variant.id,
          store_id: storeId,
          product_id: productId,
          title: variant.title,
          sku: variant.sku,
          price: moneyColumn(variant.price),
          stock: variant.stock,
          status: variant.status,
          created_at: createdAt,
        })
        .execute();
    },
  };
}

export type ProductsRepository = ReturnType<typeof productsRepository>;
