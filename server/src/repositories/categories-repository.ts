import { type Kysely, type Selectable, sql } from 'kysely';
import type { components } from '../../../generated/openapi.ts';
import type { CategoriesTable, Database } from '../db/schema.ts';
import { containsPattern, type PageRequest, pageOf } from './pagination.ts';

export type Category = components['schemas']['Category'];
type CategoryRow = Selectable<CategoriesTable> & { product_count: number | string };

function toCategory(row: CategoryRow): Category {
  return {
    id: row.id,
    storeId: row.store_id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    productCount: Number(row.product_count),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function categoriesRepository(db: Kysely<Database>) {
  const withCount = () =>
    db
      .selectFrom('categories')
      .selectAll('categories')
      .select((eb) =>
        eb
          .selectFrom('category_products')
          .select((inner) => inner.fn.countAll<number>().as('n'))
          .whereRef('category_products.category_id', '=', 'categories.id')
          .as('product_count'),
      );

  return {
    async insert(category: Omit<Category, 'productCount'>): Promise<void> {
      await db
        .insertInto('categories')
        .values({
          id: category.id,
          store_id: category.storeId,
          name: category.name,
          slug: category.slug,
          description: category.description,
          created_at: category.createdAt,
          updated_at: category.updatedAt,
        })
        .execute();
    },

    async find(storeId: string, id: string): Promise<Category | undefined> {
      const row = await withCount()
        .where('categories.store_id', '=', storeId)
        .where('categories.id', '=', id)
        .executeTakeFirst();
      return row && toCategory(row as CategoryRow);
    },

    async update(category: Omit<Category, 'productCount'>): Promise<void> {
      await db
        .updateTable('categories')
        .set({
          name: category.name,
          slug: category.slug,
          description: category.description,
          updated_at: category.updatedAt,
        })
        .where('store_id', '=', category.storeId)
        .where('id', '=', category.id)
        .execute();
    },

    async delete(storeId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom('categories')
        .where('store_id', '=', storeId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async list(storeId: string, search: string | undefined, request: PageRequest) {
      let filter = db.selectFrom('categories').where('store_id', '=', storeId);
      if (search) filter = filter.where(sql`lower(name)`, 'like', containsPattern(search));
      const counted = await filter.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
      const page = pageOf(request, Number(counted?.n ?? 0));
      let query = withCount().where('categories.store_id', '=', storeId);
      if (search) query = query.where(sql`lower(categories.name)`, 'like', containsPattern(search));
      const rows = await query
        .orderBy('categories.created_at', 'desc')
        .orderBy('categories.id')
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return { categories: rows.map((row) => toCategory(row as CategoryRow)), page };
    },

    /** Ids of those given that are categories of the store. */
    async existing(storeId: string, ids: readonly string[]): Promise<Set<string>> {
      if (ids.length === 0) return new Set();
      const rows = await db
        .selectFrom('categories')
        .select('id')
        .where('store_id', '=', storeId)
        .where('id', 'in', [...ids])
        .execute();
      return new Set(rows.map((row) => row.id));
    },

    /** Links the products (already known to be the store's); returns how many links are new. */
    async link(categoryId: string, productIds: readonly string[], at: string): Promise<number> {
      const unique = [...new Set(productIds)];
      return db.transaction().execute(async (trx) => {
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

export type CategoriesRepository = ReturnType<typeof categoriesRepository>;
