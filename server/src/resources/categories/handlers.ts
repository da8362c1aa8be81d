import { reason } from '../../../../lib/reasons.ts';
import { now } from '../../domain/clock.ts';
import { newId } from '../../domain/new-id.ts';
import { slugify } from '../../domain/slug.ts';
import { duplicateAs, found } from '../../errors.ts';
import { rejectRules, ruleViolation } from '../../rules.ts';
import { plainHandlers } from '../crud-handlers.ts';
import { type Handlers, ok } from '../operation.ts';
import type { CategoryRecord } from './repository.ts';

const slugTaken = (category: CategoryRecord) => ['name', reason('slug-taken', { slug: category.slug })] as const;

export const categoryHandlers = {
  ...plainHandlers('categories', 'category', { deleteCategory: 'delete' }),

  async listCategories({ storeId, query }, { repositories }) {
    const { categories, pagination } = await repositories.categories.listCategories(storeId, query.search, query);
    return { status: 200, body: ok({ categories, pagination }) };
  },

  async createCategory({ storeId, body }, { repositories }) {
    const at = now();
    const category: CategoryRecord = {
      id: newId(),
      storeId,
      name: body.name,
      slug: slugify(body.name),
      description: body.description ?? null,
      createdAt: at,
      updatedAt: at,
    };
    await duplicateAs(repositories.categories.createCategory(category), ...slugTaken(category));
    return { status: 201, body: ok({ category: { ...category, productCount: 0 } }) };
  },

  async getCategoryById({ storeId, path }, { repositories }) {
    const category = found(await repositories.categories.getCategoryById(storeId, path.categoryId));
    return { status: 200, body: ok({ category }) };
  },

  async updateCategory({ storeId, path, body }, { repositories }) {
    const current = found(await repositories.categories.getCategoryById(storeId, path.categoryId));
    const { productCount, ...fields } = current;
    const updated: CategoryRecord = {
      ...fields,
      ...body,
      slug: body.name !== undefined ? slugify(body.name) : current.slug,
      updatedAt: now(),
    };
    await duplicateAs(repositories.categories.updateCategory(updated), ...slugTaken(updated));
    return { status: 200, body: ok({ category: { ...updated, productCount } }) };
  },

  async assignCategoryProducts({ storeId, path, body }, { repositories }) {
    const category = found(await repositories.categories.getCategoryById(storeId, path.categoryId));
    const known = await repositories.products.existingProductIds(storeId, body.productIds);
    const unknown = body.productIds
      .map((id, index) => ({ id, index }))
      .filter(({ id }) => !known.has(id))
      .map(({ id, index }) => ruleViolation('category-products-of-store', `productIds.${index}`, { id }));
    rejectRules(unknown);
    const assignedCount = await repositories.categories.assignCategoryProducts(category.id, body.productIds, now());
    return { status: 200, body: ok({ success: true, assignedCount }) };
  },
} satisfies Partial<Handlers>;
