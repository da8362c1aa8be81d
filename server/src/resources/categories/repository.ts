import { type Kysely, sql } from 'kysely';
import type { components } from '../../../../generated/openapi.ts';
import { FILTER_ONLY_EQUALS } from '../../db/filter-only-equals.ts';
import { inTransaction } from '../../db/in-transaction.ts';
import { containsPattern, type PageRequest, storeTable } from '../../db/store-table.ts';
import type { Database } from '../index.ts';

type Category = components['schemas']['Category'];
/** A category as stored; `productCount` is counted on every read. */
export type CategoryRecord = Omit<Category, 'productCount'>;

/** How many products each of the categories lists. */
async function productCounts(db: Kysely<Database>, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('category_products')
    .select((eb) => ['category_id', eb.fn.countAll<number | string>().as('n')])
    .where('category_id', 'in', ids)
    .groupBy('category_id')
    .execute();
  return new Map(rows.map((row) => [row.category_id, Number(row.n)]));
}

/** The categories themselves, each read with how many products it lists. */
function categoryRecords(db: Kysely<Database>) {
  const categories = storeTable(db, 'categories', {});
  return {
    /** A slug already used in the store throws `DuplicateRecord`, or fails the COMMIT (PostgreSQL: answered later). */
    createCategory: (category: CategoryRecord) => categories.insertAnsweredLater(category),

    async getCategoryById(storeId: string, id: string): Promise<Category | undefined> {
      const row = await db
        .selectFrom('categories')
        .selectAll('categories')
        .select((eb) =>
          eb
            .selectFrom('category_products')
            .select((inner) => inner.fn.countAll<number | string>().as('n'))
            .whereRef('category_products.category_id', '=', 'categories.id')
            .as('product_count'),
        )
        .where('categories.store_id', FILTER_ONLY_EQUALS, storeId)
        .where('categories.id', '=', id)
        .executeTakeFirst();
      if (!row) return undefined;
      const { product_count, ...category } = row;
      return { ...categories.decode(category), productCount: Number(product_count ?? 0) };
    },

    /** A slug already used in the store throws `DuplicateRecord`. */
    updateCategory: (category: CategoryRecord) => categories.replace(category),

    deleteCategory: (storeId: string, id: string) => categories.delete(storeId, id),

    async listCategories(storeId: string, search: string | undefined, request: PageRequest) {
      const { records, pagination } = await categories.page(storeId, request, (query) =>
        search ? query.where(sql`lower(name)`, 'like', containsPattern(search)) : query,
      );
      const counts = await productCounts(
        db,
        records.map((category) => category.id),
      );
      return {
        categories: records.map((category) => ({ ...category, productCount: counts.get(category.id) ?? 0 })),
        pagination,
      };
    },

    /** Ids of those given that are categories of the store (offer rules refer to them). */
    async existingCategoryIds(storeId: string, ids: readonly string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .selectFrom('categories')
        .select('id')
        .where('store_id', FILTER_ONLY_EQUALS, storeId)
        .where('id', 'in', [...ids])
        .execute();
      return new Set(rows.map((row) => row.id));
    },
  };
}

/** The links between a category and the products it lists. */
function categoryProducts(db: Kysely<Database>) {
  return {
    /** Links the products (already known to be the store's); returns how many links are new. */
    async assignCategoryProducts(categoryId: string, productIds: readonly string[], at: string): Promise<number> {
      const unique = [...new Set(productIds)];
      return inTransaction(db, async (trx) => {
        const present = await trx
          .selectFrom('category_products')
          .select('product_id')
          .where('category_id', '=', categoryId)
          .where('product_id', 'in', unique)
          .execute();
        const linked = new Set(present.map((row) => row.product_id));
        const fresh = unique.filter((id) => !linked.has(id));
        if (fresh.length > 0) {
          await trx
            .insertInto('category_products')
            .values(fresh.map((productId) => ({ category_id: categoryId, product_id: productId, created_at: at })))
            .onConflict((conflict) => conflict.doNothing())
            .execute();
        }
        return fresh.length;
      });
    },
  };
}

export function categoriesRepository(db: Kysely<Database>) {
  return { ...categoryRecords(db), ...categoryProducts(db) };
}
