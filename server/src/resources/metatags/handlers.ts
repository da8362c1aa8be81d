import { now } from '../../domain/clock.ts';
import { newId } from '../../domain/new-id.ts';
import { found } from '../../errors.ts';
import { ruleError, ruleViolation } from '../../rules.ts';
import { plainHandlers } from '../crud-handlers.ts';
import { type Handlers, ok } from '../operation.ts';
import type { Metatag } from './repository.ts';

/** `ALL` means every page and is not combined with other pages. */
function checkPages(pages: Metatag['pages']): void {
  if (pages.includes('ALL') && pages.length > 1) {
    throw ruleError(ruleViolation('metatag-all-pages-alone', 'pages'));
  }
}

export const metatagHandlers = {
  ...plainHandlers('metatags', 'metatag', { listMetatags: 'list', getMetatagById: 'get', deleteMetatag: 'delete' }),

  async createMetatag({ storeId, body }, { repositories }) {
    checkPages(body.pages);
    const at = now();
    const metatag: Metatag = { id: newId(), storeId, ...body, createdAt: at, updatedAt: at };
    await repositories.metatags.createMetatag(metatag);
    return { status: 201, body: ok({ metatag }) };
  },

  async updateMetatag({ storeId, path, body }, { repositories }) {
    const current = found(await repositories.metatags.getMetatagById(storeId, path.metatagId));
    if (body.pages) checkPages(body.pages);
    const metatag: Metatag = { ...current, ...body, updatedAt: now() };
    await repositories.metatags.updateMetatag(metatag);
    return { status: 200, body: ok({ metatag }) };
  },
} satisfies Partial<Handlers>;
