import { randomUUID } from 'node:crypto';
import { now } from '../domain/clock.ts';
import { referencesAt, requirePercentAtMost100, requireReferences } from '../domain/offer-rules.ts';
import { notFound } from '../errors.ts';
import { paginationOf } from '../repositories/pagination.ts';
import type { Upsell } from '../repositories/upsells-repository.ts';
import { type Handlers, ok } from '../resources/operation.ts';

export const upsellHandlers: Pick<
  Handlers,
  'listUpsells' | 'createUpsell' | 'getUpsellById' | 'updateUpsell' | 'deleteUpsell'
> = {
  async listUpsells({ storeId, query }, { repositories }) {
    const { upsells, page } = await repositories.upsells.list(storeId, query, query);
    return { status: 200, body: ok({ upsells, pagination: paginationOf(page) }) };
  },

  async createUpsell({ storeId, body }, { repositories }) {
    const at = now();
    const upsell: Upsell = {
      id: randomUUID(),
      storeId,
      name: body.name,
      productId: body.productId,
      triggerProductIds: body.triggerProductIds ?? [],
      discountType: body.discountType,
      discountAmount: body.discountAmount,
      title: body.title,
      description: body.description ?? null,
      active: body.active ?? true,
      createdAt: at,
      updatedAt: at,
    };
    requirePercentAtMost100(upsell.discountType, upsell.discountAmount, 'discountAmount');
    await requireReferences(repositories, storeId, [
      { path: 'productId', id: upsell.productId },
      ...referencesAt('triggerProductIds', upsell.triggerProductIds),
    ]);
    await repositories.upsells.insert(upsell);
    return { status: 201, body: ok({ upsell }) };
  },

  async getUpsellById({ storeId, path }, { repositories }) {
    const upsell = await repositories.upsells.find(storeId, path.upsellId);
    if (!upsell) throw notFound();
    return { status: 200, body: ok({ upsell }) };
  },

  async updateUpsell({ storeId, path, body }, { repositories }) {
    const current = await repositories.upsells.find(storeId, path.upsellId);
    if (!current) throw notFound();
    const upsell: Upsell = { ...current, ...body, updatedAt: now() };
    requirePercentAtMost100(upsell.discountType, upsell.discountAmount, 'discountAmount');
    await requireReferences(repositories, storeId, [
      ...(body.productId ? [{ path: 'productId', id: body.productId }] : []),
      ...referencesAt('triggerProductIds', body.triggerProductIds),
    ]);
    await repositories.upsells.replace(upsell);
    return { status: 200, body: ok({ upsell }) };
  },

  async deleteUpsell({ storeId, path }, { repositories }) {
    if (!(await repositories.upsells.delete(storeId, path.upsellId))) throw notFound();
    return { status: 204, body: undefined };
  },
};
