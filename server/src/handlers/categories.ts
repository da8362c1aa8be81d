import { randomUUID } from 'node:crypto';
import { slugify } from '../domain/slug.ts';
import { detail, duplicateEntry, notFound, referenceNotFound } from '../errors.ts';
import type { CategoriesRepository, Category } from '../repositories/categories-repository.ts';
import { now } from '../repositories/columns.ts';
import { paginationOf } from '../repositories/pagination.ts';
import { isUniqueViolation } from '../repositories/unique-violation.ts';
import { type Handlers, ok } from './types.ts';

async function save(categories: CategoriesRepository, category: Omit<Category, 'productCount'>, existing: boolean) {
  try {
    await (existing ? categories.update(category) : categories.insert(category));
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateEntry('name', `slug já utilizado: ${category.slug}`);
    throw error;
  }
}

export const categoryHandlers: Pick<
  Handlers,
  | 'listCategories'
  | 'createCategory'
  | 'getCategoryById'
  | 'updateCategory'
  | 'deleteCategory'
  | 'assignCategoryProducts'
> = {
  async listCategories({ storeId, query }, { repositories }) {
    const { categories, page } = await repositories.categories.list(storeId, query.search, query);
    return { status: 200, body: ok({ categories, pagination: paginationOf(page) }) };
  },

  async createCategory({ storeId, body }, { repositories }) {
    const at = now();
    const category = {
      id: randomUUID(),
      storeId,
      name: body.name,
      slug: slugify(body.name),
      description: body.description ?? null,
      createdAt: at,
      updatedAt: at,
    };
    await save(repositories.categories, category, false);
    return { status: 201, body: ok({ category: { ...category, productCount: 0 } }) };
  },

  async getCategoryById({ storeId, path }, { repositories }) {
    const category = await repositories.categories.find(storeId, path.categoryId);
    if (!category) throw notFound();
    return { status: 200, body: ok({ category }) };
  },

  async updateCategory({ storeId, path, body }, { repositories }) {
    const current = await repositories.categories.find(storeId, path.categoryId);
    if (!current) throw notFound();
    const { productCount, ...fields } = current;
    const updated = {
      ...fields,
      ...body,
      slug: body.name !== undefined ? slugify(body.name) : current.slug,
      updatedAt: now(),
    };
    await save(repositories.categories, updated, true);
    return { status: 200, body: ok({ category: { ...updated, productCount } }) };
  },

  async deleteCategory({ storeId, path }, { repositories }) {
    if (!(await repositories.categories.delete(storeId, path.categoryId))) throw notFound();
    return { status: 204, body: undefined };
  },

  async assignCategoryProducts({ storeId, path, body }, { repositories }) {
    const category = await repositories.categories.find(storeId, path.categoryId);
    if (!category) throw notFound();
    const known = await repositories.products.existing(storeId, body.productIds);
    const unknown = body.productIds
      .map((id, index) => ({ id, index }))
      .filter(({ id }) => !known.has(id))
      .map(({ id, index }) => detail('body', `productIds.${index}`, `produto não encontrado: ${id}`));
    if (unknown.length > 0) throw referenceNotFound(unknown);
    const assignedCount = await repositories.categories.link(category.id, body.productIds, now());
    return { status: 200, body: ok({ success: true, assignedCount }) };
  },
};
