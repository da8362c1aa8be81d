import { randomUUID } from 'node:crypto';
import { now } from '../../domain/clock.ts';
import { requireWindow } from '../../domain/offer-rules.ts';
import { found } from '../../errors.ts';
import { deleted, type Handlers, ok } from '../operation.ts';
import { requireReferences } from '../products/catalog-references.ts';
import type { Gift } from './repository.ts';

export const giftHandlers: Pick<Handlers, 'listGifts' | 'createGift' | 'getGiftById' | 'updateGift' | 'deleteGift'> = {
  async listGifts({ storeId, query }, { repositories }) {
    return { status: 200, body: ok(await repositories.gifts.listGifts(storeId, query)) };
  },

  async createGift({ storeId, body }, { repositories }) {
    const at = now();
    const gift: Gift = {
      id: randomUUID(),
      storeId,
      startsAt: null,
      endsAt: null,
      ...body,
      createdAt: at,
      updatedAt: at,
    };
    requireWindow(gift.startsAt, gift.endsAt, 'endsAt', 'startsAt');
    await requireReferences(repositories, storeId, [{ path: 'productId', id: gift.productId }]);
    await repositories.gifts.createGift(gift);
    return { status: 201, body: ok({ gift }) };
  },

  async getGiftById({ storeId, path }, { repositories }) {
    const gift = found(await repositories.gifts.getGiftById(storeId, path.giftId));
    return { status: 200, body: ok({ gift }) };
  },

  async updateGift({ storeId, path, body }, { repositories }) {
    const current = found(await repositories.gifts.getGiftById(storeId, path.giftId));
    const gift: Gift = { ...current, ...body, updatedAt: now() };
    requireWindow(gift.startsAt, gift.endsAt, 'endsAt', 'startsAt');
    if (body.productId) await requireReferences(repositories, storeId, [{ path: 'productId', id: body.productId }]);
    await repositories.gifts.updateGift(gift);
    return { status: 200, body: ok({ gift }) };
  },

  async deleteGift({ storeId, path }, { repositories }) {
    return deleted(await repositories.gifts.deleteGift(storeId, path.giftId));
  },
};
