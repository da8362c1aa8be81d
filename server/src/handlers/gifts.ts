import { randomUUID } from 'node:crypto';
import { now } from '../domain/clock.ts';
import { requireReferences, requireWindow } from '../domain/offer-rules.ts';
import { notFound } from '../errors.ts';
import type { Gift } from '../repositories/gifts-repository.ts';
import { paginationOf } from '../repositories/pagination.ts';
import { type Handlers, ok } from '../resources/operation.ts';

export const giftHandlers: Pick<Handlers, 'listGifts' | 'createGift' | 'getGiftById' | 'updateGift' | 'deleteGift'> = {
  async listGifts({ storeId, query }, { repositories }) {
    const { gifts, page } = await repositories.gifts.list(storeId, query, query);
    return { status: 200, body: ok({ gifts, pagination: paginationOf(page) }) };
  },

  async createGift({ storeId, body }, { repositories }) {
    const at = now();
    const gift: Gift = {
      id: randomUUID(),
      storeId,
      name: body.name,
      productId: body.productId,
      active: body.active ?? true,
      minCartTotal: body.minCartTotal,
      maxQuantity: body.maxQuantity ?? 1,
      startsAt: body.startsAt ?? null,
      endsAt: body.endsAt ?? null,
      createdAt: at,
      updatedAt: at,
    };
    requireWindow(gift.startsAt, gift.endsAt, 'endsAt', 'startsAt');
    await requireReferences(repositories, storeId, [{ path: 'productId', id: gift.productId }]);
    await repositories.gifts.insert(gift);
    return { status: 201, body: ok({ gift }) };
  },

  async getGiftById({ storeId, path }, { repositories }) {
    const gift = await repositories.gifts.find(storeId, path.giftId);
    if (!gift) throw notFound();
    return { status: 200, body: ok({ gift }) };
  },

  async updateGift({ storeId, path, body }, { repositories }) {
    const current = await repositories.gifts.find(storeId, path.giftId);
    if (!current) throw notFound();
    const gift: Gift = { ...current, ...body, updatedAt: now() };
    requireWindow(gift.startsAt, gift.endsAt, 'endsAt', 'startsAt');
    if (body.productId) await requireReferences(repositories, storeId, [{ path: 'productId', id: body.productId }]);
    await repositories.gifts.replace(gift);
    return { status: 200, body: ok({ gift }) };
  },

  async deleteGift({ storeId, path }, { repositories }) {
    if (!(await repositories.gifts.delete(storeId, path.giftId))) throw notFound();
    return { status: 204, body: undefined };
  },
};
