import { expect } from 'vitest';
import { detailPaths, newProduct, shirtAndForeign, twoProducts, UNKNOWN } from '../../../test/catalog.ts';
import { deletedAnswer, deletion } from '../../../test/deletion.ts';
import { describeEngines, test, withoutDefaults } from '../../../test/fixture.ts';
import type { UpsellCreate } from '../../../test/records.ts';
import { atUpsellId as at } from '../../../test/records.ts';
import { expectStoreScoped } from '../../../test/store-scoped.ts';

describeEngines('upsells', () => {
  test('createUpsell fills the defaults; getUpsellById, listUpsells (search by title), updateUpsell and deleteUpsell follow it', async ({
    api,
    tenant,
  }) => {
    const { shirt, ebook } = await twoProducts(api);
    const sent = withoutDefaults<UpsellCreate>({
      name: 'Upsell ebook',
      productId: ebook.id,
      triggerProductIds: [shirt.id],
      discountType: 'PERCENT',
      discountAmount: 15,
      title: 'Leve o ebook de receitas',
    });
    const created = await api.POST('/api/v1/upsells', { body: sent });
    expect(created.response.status).toBe(201);
    const upsell = created.data?.data.upsell;
    expect(upsell).toEqual({
      id: expect.any(String),
      storeId: tenant.storeId,
      ...sent,
      description: null,
      active: true,
      createdAt: expect.any(String),
      updatedAt: upsell?.createdAt,
    });
    const upsellId = upsell?.id ?? UNKNOWN;
    expect((await api.GET('/api/v1/upsells/{upsellId}', at(upsellId))).data?.data.upsell).toEqual(upsell);
    const search = await api.GET('/api/v1/upsells', { params: { query: { search: 'RECEITAS' } } });
    expect(search.data?.data.upsells).toEqual([upsell]);
    const change = { discountType: 'FIXED', discountAmount: 150 } as const;
    const updated = await api.PATCH('/api/v1/upsells/{upsellId}', { ...at(upsellId), body: change });
    expect(updated.response.status).toBe(200);
    expect(updated.data?.data.upsell).toEqual({ ...upsell, ...change, updatedAt: expect.any(String) });
    expect(await deletion(api.DELETE('/api/v1/upsells/{upsellId}', at(upsellId)))).toEqual(deletedAnswer(upsellId));
    expect((await api.GET('/api/v1/upsells/{upsellId}', at(upsellId))).response.status).toBe(404);
  });

  test('createUpsell and updateUpsell keep a PERCENT discount at most 100, also when an update sends only the amount', async ({
    api,
  }) => {
    const ebook = await newProduct(api, 'Ebook Receitas');
    const body = withoutDefaults<UpsellCreate>({
      name: 'U',
      productId: ebook.id,
      discountType: 'PERCENT',
      discountAmount: 101,
      title: 'T',
    });
    const tooMuch = await api.POST('/api/v1/upsells', { body });
    expect(tooMuch.response.status).toBe(400);
    expect(detailPaths(tooMuch.error)).toContain('discountAmount');
    const upsellId = (await api.POST('/api/v1/upsells', { body: { ...body, discountAmount: 10 } })).data?.data.upsell
      .id;
    const update = await api.PATCH('/api/v1/upsells/{upsellId}', {
      ...at(upsellId ?? UNKNOWN),
      body: { discountAmount: 150 },
    });
    expect(update.response.status).toBe(400);
    expect(detailPaths(update.error)).toEqual(['discountAmount']);
    const read = await api.GET('/api/v1/upsells/{upsellId}', at(upsellId ?? UNKNOWN));
    expect(read.data?.data.upsell.discountAmount).toBe(10);
  });

  test('createUpsell answers 422 naming the product and each bad trigger product', async ({ api, otherStore }) => {
    const { shirt, foreign } = await shirtAndForeign(api, otherStore);
    const { response, error } = await api.POST('/api/v1/upsells', {
      body: withoutDefaults<UpsellCreate>({
        name: 'U',
        productId: UNKNOWN,
        triggerProductIds: [shirt.id, foreign.id],
        discountType: 'FIXED',
        discountAmount: 5,
        title: 'T',
      }),
    });
    expect(response.status).toBe(422);
    expect(detailPaths(error)).toEqual(['productId', 'triggerProductIds.1']);
  });

  test('getUpsellById, updateUpsell and deleteUpsell are confined to the store and the scope; listUpsells bounds its pages', async ({
    api,
    otherStore,
    withScopes,
  }) => {
    const shirt = await newProduct(api, 'Meia Esportiva');
    await expectStoreScoped(
      {
        create: async (client) => {
          const reply = await client.POST('/api/v1/upsells', {
            body: withoutDefaults<UpsellCreate>({
              name: 'U',
              productId: shirt.id,
              discountType: 'FIXED',
              discountAmount: 1,
              title: 'T',
            }),
          });
          return { ...reply, id: reply.data?.data.upsell.id };
        },
        get: (client, id) => client.GET('/api/v1/upsells/{upsellId}', at(id)),
        update: (client, id) => client.PATCH('/api/v1/upsells/{upsellId}', { ...at(id), body: { name: 'Outro nome' } }),
        remove: (client, id) => client.DELETE('/api/v1/upsells/{upsellId}', at(id)),
        list: (client, query) => client.GET('/api/v1/upsells', { params: { query } }),
      },
      { api, otherStore, withoutScope: await withScopes(['products:read']) },
    );
  });
});
