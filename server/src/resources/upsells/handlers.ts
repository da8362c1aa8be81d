import { now } from '../../domain/clock.ts';
import { newId } from '../../domain/new-id.ts';
import { requirePercentAtMost100 } from '../../domain/offer-rules.ts';
import { found } from '../../errors.ts';
import { plainHandlers } from '../crud-handlers.ts';
import { type Handlers, ok } from '../operation.ts';
import { referencesAt, requireReferences } from '../products/catalog-references.ts';
import type { Upsell } from './repository.ts';

export const upsellHandlers = {
  ...plainHandlers('upsells', 'upsell', { listUpsells: 'list', getUpsellById: 'get', deleteUpsell: 'delete' }),

  async createUpsell({ storeId, body }, { repositories }) {
    const at = now();
    const upsell: Upsell = { id: newId(), storeId, description: null, ...body, createdAt: at, updatedAt: at };
    requirePercentAtMost100(upsell.discountType, upsell.discountAmount, 'discountAmount');
    await requireReferences(repositories, storeId, [
      { path: 'productId', id: upsell.productId },
      ...referencesAt('triggerProductIds', upsell.triggerProductIds),
    ]);
    await repositories.upsells.createUpsell(upsell);
    return { status: 201, body: ok({ upsell }) };
  },

  async updateUpsell({ storeId, path, body }, { repositories }) {
    const current = found(await repositories.upsells.getUpsellById(storeId, path.upsellId));
    const upsell: Upsell = { ...current, ...body, updatedAt: now() };
    requirePercentAtMost100(upsell.discountType, upsell.discountAmount, 'discountAmount');
    await requireReferences(repositories, storeId, [
      ...(body.productId ? [{ path: 'productId', id: body.productId }] : []),
      ...referencesAt('triggerProductIds', body.triggerProductIds),
    ]);
    await repositories.upsells.updateUpsell(upsell);
    return { status: 200, body: ok({ upsell }) };
  },
} satisfies Partial<Handlers>;
