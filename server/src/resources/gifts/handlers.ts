import { now } from '../../domain/clock.ts';
import { newId } from '../../domain/new-id.ts';
import { requireWindow } from '../../domain/offer-rules.ts';
import { found } from '../../errors.ts';
import { plainHandlers } from '../crud-handlers.ts';
import { type Handlers, ok } from '../operation.ts';
import { requireReferences } from '../products/catalog-references.ts';
import type { Gift } from './repository.ts';

export const giftHandlers = {
  ...plainHandlers('gifts', 'gift', { listGifts: 'list', getGiftById: 'get', deleteGift: 'delete' }),

  async createGift({ storeId, body }, { repositories }) {
    const at = now();
    const gift: Gift = {
      id: newId(),
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

  async updateGift({ storeId, path, body }, { repositories }) {
    const current = found(await repositories.gifts.getGiftById(storeId, path.giftId));
    const gift: Gift = { ...current, ...body, updatedAt: now() };
    requireWindow(gift.startsAt, gift.endsAt, 'endsAt', 'startsAt');
    if (body.productId) await requireReferences(repositories, storeId, [{ path: 'productId', id: body.productId }]);
    await repositories.gifts.updateGift(gift);
    return { status: 200, body: ok({ gift }) };
  },
} satisfies Partial<Handlers>;
