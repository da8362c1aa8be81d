import { randomUUID } from 'node:crypto';
import { notFound } from '../errors.ts';
import { now } from '../repositories/columns.ts';
import type { Metatag } from '../repositories/metatags-repository.ts';
import { paginationOf } from '../repositories/pagination.ts';
import { ruleError, ruleViolation } from '../rules.ts';
import { type Handlers, ok } from './types.ts';

/** `ALL` means every page and is not combined with other pages. */
function checkPages(pages: Metatag['pages']): void {
  if (pages.includes('ALL') && pages.length > 1) {
    throw ruleError(ruleViolation('metatag-all-pages-alone', 'pages', 'ALL não pode ser combinado com outras páginas'));
  }
}

export const metatagHandlers: Pick<
  Handlers,
  'listMetatags' | 'createMetatag' | 'getMetatagById' | 'updateMetatag' | 'deleteMetatag'
> = {
  async listMetatags({ storeId, query }, { repositories }) {
    const filters = { active: query.active, placement: query.placement, search: query.search };
    const { metatags, page } = await repositories.metatags.list(storeId, filters, query);
    return { status: 200, body: ok({ metatags, pagination: paginationOf(page) }) };
  },

  async createMetatag({ storeId, body }, { repositories }) {
    const pages = body.pages ?? ['ALL'];
    checkPages(pages);
    const at = now();
    const metatag: Metatag = {
      id: randomUUID(),
      storeId,
      name: body.name,
      content: body.content,
      placement: body.placement,
      pages,
      active: body.active ?? false,
      createdAt: at,
      updatedAt: at,
    };
    await repositories.metatags.insert(metatag);
    return { status: 201, body: ok({ metatag }) };
  },

  async getMetatagById({ storeId, path }, { repositories }) {
    const metatag = await repositories.metatags.find(storeId, path.metatagId);
    if (!metatag) throw notFound();
    return { status: 200, body: ok({ metatag }) };
  },

  async updateMetatag({ storeId, path, body }, { repositories }) {
    const current = await repositories.metatags.find(storeId, path.metatagId);
    if (!current) throw notFound();
    if (body.pages) checkPages(body.pages);
    const metatag: Metatag = { ...current, ...body, updatedAt: now() };
    await repositories.metatags.replace(metatag);
    return { status: 200, body: ok({ metatag }) };
  },

  async deleteMetatag({ storeId, path }, { repositories }) {
    if (!(await repositories.metatags.delete(storeId, path.metatagId))) throw notFound();
    return { status: 204, body: undefined };
  },
};
