import { expect } from 'vitest';
import { detailPaths, newProduct, shirtAndForeign, twoProducts, UNKNOWN } from '../../../test/catalog.ts';
import { deletedAnswer, deletion } from '../../../test/deletion.ts';
import { describeEngines, malformed, test, withoutDefaults } from '../../../test/fixture.ts';
import type { GiftCreate } from '../../../test/records.ts';
import { atGiftId as at } from '../../../test/records.ts';
import { expectStoreScoped } from '../../../test/store-scoped.ts';

describeEngines('gifts', () => {
  test('createGift fills the defaults; getGiftById, listGifts filters, updateGift and deleteGift follow it', async ({
    api,
    tenant,
  }) => {
    const { shirt, ebook } = await twoProducts(api);
    const created = await api.POST('/api/v1/gifts', {
      body: withoutDefaults<GiftCreate>({ name: 'Brinde Meia', productId: shirt.id, minCartTotal: 150 }),
    });
    expect(created.response.status).toBe(201);
    const gift = created.data?.data.gift;
    expect(gift).toEqual({
      id: expect.any(String),
      storeId: tenant.storeId,
      name: 'Brinde Meia',
      productId: shirt.id,
      active: true,
      minCartTotal: 150,
      maxQuantity: 1,
      startsAt: null,
      endsAt: null,
      createdAt: expect.any(String),
      updatedAt: gift?.createdAt,
    });
    const giftId = gift?.id ?? UNKNOWN;
    expect((await api.GET('/api/v1/gifts/{giftId}', at(giftId))).data?.data.gift).toEqual(gift);
    const active = await api.GET('/api/v1/gifts', { params: { query: { active: true, search: 'brinde' } } });
    expect(active.data?.data.gifts).toEqual([gift]);
    const inactive = await api.GET('/api/v1/gifts', { params: { query: { active: false } } });
    expect(inactive.data?.data.gifts).toEqual([]);
    const window = { startsAt: '2030-01-01T00:00:00Z', endsAt: '2030-02-01T00:00:00Z' };
    const updated = await api.PATCH('/api/v1/gifts/{giftId}', {
      ...at(giftId),
      body: { active: false, productId: ebook.id, ...window },
    });
    expect(updated.response.status).toBe(200);
    expect(updated.data?.data.gift).toEqual({
      ...gift,
      active: false,
      productId: ebook.id,
      ...window,
      updatedAt: expect.any(String),
    });
    expect((await api.GET('/api/v1/gifts/{giftId}', at(giftId))).data?.data.gift).toEqual(updated.data?.data.gift);
    expect(await deletion(api.DELETE('/api/v1/gifts/{giftId}', at(giftId)))).toEqual(deletedAnswer(giftId));
    expect((await api.DELETE('/api/v1/gifts/{giftId}', at(giftId))).response.status).toBe(404);
  });

  test('createGift answers 422 for a foreign product and 400 for an end not after the start or no minCartTotal', async ({
    api,
    otherStore,
  }) => {
    const { shirt, foreign: foreignProduct } = await shirtAndForeign(api, otherStore);
    const foreign = await api.POST('/api/v1/gifts', {
      body: withoutDefaults<GiftCreate>({ name: 'B', productId: foreignProduct.id, minCartTotal: 1 }),
    });
    expect(foreign.response.status).toBe(422);
    expect(detailPaths(foreign.error)).toEqual(['productId']);
    const window = await api.POST('/api/v1/gifts', {
      body: withoutDefaults<GiftCreate>({
        name: 'B',
        productId: shirt.id,
        minCartTotal: 1,
        startsAt: '2030-01-01T00:00:00Z',
        endsAt: '2030-01-01T00:00:00Z',
      }),
    });
    expect(window.response.status).toBe(400);
    expect(detailPaths(window.error)).toEqual(['endsAt']);
    const missing = await api.POST('/api/v1/gifts', { body: malformed({ name: 'B', productId: shirt.id }) });
    expect(missing.response.status).toBe(400);
    expect(detailPaths(missing.error)).toContain('minCartTotal');
  });

  test('getGiftById, updateGift and deleteGift are confined to the store and the scope; listGifts bounds its pages', async ({
    api,
    otherStore,
    withScopes,
  }) => {
    const shirt = await newProduct(api, 'Meia Esportiva');
    await expectStoreScoped(
      {
        create: async (client) => {
          const reply = await client.POST('/api/v1/gifts', {
            body: withoutDefaults<GiftCreate>({ name: 'G', productId: shirt.id, minCartTotal: 1 }),
          });
          return { ...reply, id: reply.data?.data.gift.id };
        },
        get: (client, id) => client.GET('/api/v1/gifts/{giftId}', at(id)),
        update: (client, id) => client.PATCH('/api/v1/gifts/{giftId}', { ...at(id), body: { name: 'Outro nome' } }),
        remove: (client, id) => client.DELETE('/api/v1/gifts/{giftId}', at(id)),
        list: (client, query) => client.GET('/api/v1/gifts', { params: { query } }),
      },
      { api, otherStore, withoutScope: await withScopes(['products:read']) },
    );
  });
});
