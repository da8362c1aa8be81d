import { expect } from 'vitest';
import { detailPaths, newProduct, shirtAndForeign, twoProducts, UNKNOWN } from '../../../test/catalog.ts';
import { deletedAnswer, deletion } from '../../../test/deletion.ts';
import { describeEngines, malformed, test, withoutDefaults } from '../../../test/fixture.ts';
import type { KitCreate } from '../../../test/records.ts';
import { atKitId as at } from '../../../test/records.ts';
import { expectInvalid, expectStoreScoped } from '../../../test/store-scoped.ts';

describeEngines('kits', () => {
  test('createKit (201) fills the defaults; getKitById, listKits, updateKit and deleteKit follow it', async ({
    api,
    tenant,
  }) => {
    const { shirt, ebook } = await twoProducts(api, { shirt: { price: 29.9 }, ebook: { price: 100 } });
    const items = [
      { productId: shirt.id, quantity: 2 },
      { productId: ebook.id, quantity: 1 },
    ];
    const created = await api.POST('/api/v1/kits', {
      body: withoutDefaults<KitCreate>({ name: 'Kit Treino', price: 119.9, items }),
    });
    expect(created.response.status).toBe(201);
    const kit = created.data?.data.kit;
    expect(created.data).toEqual({
      success: true,
      data: {
        kit: {
          id: expect.any(String),
          storeId: tenant.storeId,
          name: 'Kit Treino',
          description: null,
          status: 'ACTIVE',
          price: 119.9,
          items,
          createdAt: expect.any(String),
          updatedAt: kit?.createdAt,
        },
      },
    });
    const kitId = kit?.id ?? UNKNOWN;
    expect((await api.GET('/api/v1/kits/{kitId}', at(kitId))).data).toEqual(created.data);
    const list = await api.GET('/api/v1/kits', { params: { query: { search: 'treino', status: 'ACTIVE' } } });
    expect(list.data?.data).toEqual({ kits: [kit], pagination: { page: 1, limit: 20, total: 1, totalPages: 1 } });
    const inactive = await api.GET('/api/v1/kits', { params: { query: { status: 'INACTIVE' } } });
    expect(inactive.data?.data.kits).toEqual([]);

    const updated = await api.PATCH('/api/v1/kits/{kitId}', {
      ...at(kitId),
      body: { status: 'INACTIVE', items: [{ productId: ebook.id, quantity: 3 }] },
    });
    expect(updated.response.status).toBe(200);
    expect(updated.data?.data.kit).toEqual({
      ...kit,
      status: 'INACTIVE',
      items: [{ productId: ebook.id, quantity: 3 }],
      updatedAt: expect.any(String),
    });
    expect((await api.GET('/api/v1/kits/{kitId}', at(kitId))).data?.data.kit).toEqual(updated.data?.data.kit);
    expect(await deletion(api.DELETE('/api/v1/kits/{kitId}', at(kitId)))).toEqual(deletedAnswer(kitId));
    expect((await api.GET('/api/v1/kits/{kitId}', at(kitId))).response.status).toBe(404);
  });

  test('createKit and updateKit answer 422 REFERENCE_NOT_FOUND naming each unknown or foreign item product', async ({
    api,
    otherStore,
  }) => {
    const { shirt, foreign } = await shirtAndForeign(api, otherStore);
    const bad = await api.POST('/api/v1/kits', {
      body: withoutDefaults<KitCreate>({
        name: 'Kit Ruim',
        price: 10,
        items: [
          { productId: shirt.id, quantity: 1 },
          { productId: UNKNOWN, quantity: 1 },
          { productId: foreign.id, quantity: 1 },
        ],
      }),
    });
    expect(bad.response.status).toBe(422);
    expect(bad.error).toMatchObject({ error: { code: 'REFERENCE_NOT_FOUND' } });
    expect(detailPaths(bad.error)).toEqual(['items.1.productId', 'items.2.productId']);
    const good = await api.POST('/api/v1/kits', {
      body: withoutDefaults<KitCreate>({ name: 'Kit Bom', price: 10, items: [{ productId: shirt.id, quantity: 1 }] }),
    });
    const update = await api.PATCH('/api/v1/kits/{kitId}', {
      ...at(good.data?.data.kit.id ?? UNKNOWN),
      body: { items: [{ productId: UNKNOWN, quantity: 1 }] },
    });
    expect(update.response.status).toBe(422);
    expect(detailPaths(update.error)).toEqual(['items.0.productId']);
  });

  test.for([
    ['no items', { name: 'Kit', price: 10, items: [] }, 'items'],
    ['quantity 0', { name: 'Kit', price: 10, items: [{ productId: UNKNOWN, quantity: 0 }] }, 'items.0.quantity'],
    ['missing name', { price: 10, items: [{ productId: UNKNOWN, quantity: 1 }] }, 'name'],
    ['negative price', { name: 'Kit', price: -1, items: [{ productId: UNKNOWN, quantity: 1 }] }, 'price'],
    ['unknown field', { name: 'Kit', price: 1, items: [{ productId: UNKNOWN, quantity: 1 }], sku: 'x' }, 'sku'],
  ] as const)('createKit rejects %s with 400 naming the field', async ([, body, field], { api }) => {
    expectInvalid(await api.POST('/api/v1/kits', { body: malformed(body) }), field);
  });

  test('getKitById, updateKit and deleteKit are confined to the store and the scope; listKits bounds its pages', async ({
    api,
    otherStore,
    withScopes,
  }) => {
    const shirt = await newProduct(api, 'Meia Esportiva');
    await expectStoreScoped(
      {
        create: async (client) => {
          const reply = await client.POST('/api/v1/kits', {
            body: withoutDefaults<KitCreate>({ name: 'K', price: 1, items: [{ productId: shirt.id, quantity: 1 }] }),
          });
          return { ...reply, id: reply.data?.data.kit.id };
        },
        get: (client, id) => client.GET('/api/v1/kits/{kitId}', at(id)),
        update: (client, id) => client.PATCH('/api/v1/kits/{kitId}', { ...at(id), body: { name: 'Outro nome' } }),
        remove: (client, id) => client.DELETE('/api/v1/kits/{kitId}', at(id)),
        list: (client, query) => client.GET('/api/v1/kits', { params: { query } }),
      },
      { api, otherStore, withoutScope: await withScopes(['products:read']) },
    );
  });
});
