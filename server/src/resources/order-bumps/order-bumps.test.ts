import { expect } from 'vitest';
import { detailPaths, newCategory, newProduct, twoProducts, UNKNOWN } from '../../../test/catalog.ts';
import { deletedAnswer, deletion } from '../../../test/deletion.ts';
import { type Api, describeEngines, malformed, test, withoutDefaults } from '../../../test/fixture.ts';
import type { OrderBumpCreate, VariantCreate } from '../../../test/records.ts';
import { atOrderBumpId as at } from '../../../test/records.ts';
import { expectStoreScoped } from '../../../test/store-scoped.ts';

/** A shirt with a cover image (29.9), an ebook without images (100), a category, and a valid bump body. */
async function catalog(api: Api) {
  const { shirt, ebook } = await twoProducts(api, {
    shirt: {
      price: 29.9,
      media: { images: ['https://cdn.example.com/meia.jpg', 'https://cdn.example.com/meia-2.jpg'] },
    },
    ebook: { price: 100 },
  });
  const category = await newCategory(api, 'Acessórios');
  const bumpBody = withoutDefaults<OrderBumpCreate>({
    name: 'Bump meia',
    productId: shirt.id,
    discountType: 'PERCENT',
    discountAmount: 10,
    title: 'Leve também a meia esportiva',
    triggerProductIds: [ebook.id],
    targetCategoryIds: [category.id],
  });
  return { shirt, ebook, categoryId: category.id, bumpBody };
}

describeEngines('order bumps', () => {
  test('createOrderBump prices the bump from the product (every documented field); getOrderBumpById, listOrderBumps, updateOrderBump and deleteOrderBump follow it', async ({
    api,
    tenant,
  }) => {
    const { shirt, ebook, categoryId, bumpBody } = await catalog(api);
    const created = await api.POST('/api/v1/order-bumps', { body: bumpBody });
    expect(created.response.status).toBe(201);
    const orderBump = created.data?.data.orderBump;
    expect(created.data).toEqual({
      success: true,
      data: {
        orderBump: {
          id: expect.any(String),
          storeId: tenant.storeId,
          name: 'Bump meia',
          description: null,
          type: 'PRODUCT',
          status: 'ACTIVE',
          productId: shirt.id,
          productVariantId: null,
          discountType: 'PERCENT',
          discountAmount: 10,
          title: 'Leve também a meia esportiva',
          subtitle: null,
          image: 'https://cdn.example.com/meia.jpg',
          price: 29.9,
          discountedPrice: 26.91,
          autoAdd: false,
          required: false,
          maxQuantity: 1,
          startsAt: null,
          endsAt: null,
          triggerProductIds: [ebook.id],
          targetCategoryIds: [categoryId],
          minCartTotal: null,
          maxCartTotal: null,
          position: 0,
          displayOrder: 0,
          isStandalone: false,
          standaloneSettings: null,
          createdAt: expect.any(String),
          updatedAt: orderBump?.createdAt,
          buttonText: 'Adicionar ao pedido',
        },
      },
    });
    const orderBumpId = orderBump?.id ?? UNKNOWN;
    expect((await api.GET('/api/v1/order-bumps/{orderBumpId}', at(orderBumpId))).data).toEqual(created.data);
    const list = await api.GET('/api/v1/order-bumps', { params: { query: { status: 'ACTIVE', limit: 100 } } });
    expect(list.data?.data.orderBumps).toEqual([orderBump]);

    const updated = await api.PATCH('/api/v1/order-bumps/{orderBumpId}', {
      ...at(orderBumpId),
      body: {
        status: 'INACTIVE',
        productId: ebook.id,
        discountType: 'FIXED',
        discountAmount: 33.33,
        buttonText: 'Quero esta oferta',
        standaloneSettings: { layout: 'card' },
      },
    });
    expect(updated.response.status).toBe(200);
    expect(updated.data?.data.orderBump).toEqual({
      ...orderBump,
      status: 'INACTIVE',
      productId: ebook.id,
      discountType: 'FIXED',
      discountAmount: 33.33,
      price: 100,
      discountedPrice: 66.67,
      buttonText: 'Quero esta oferta',
      standaloneSettings: { layout: 'card' },
      updatedAt: expect.any(String),
    });
    const read = await api.GET('/api/v1/order-bumps/{orderBumpId}', at(orderBumpId));
    expect(read.data?.data.orderBump).toEqual(updated.data?.data.orderBump);
    const inactive = await api.GET('/api/v1/order-bumps', { params: { query: { status: 'INACTIVE' } } });
    expect(inactive.data?.data.orderBumps).toEqual([updated.data?.data.orderBump]);
    expect(await deletion(api.DELETE('/api/v1/order-bumps/{orderBumpId}', at(orderBumpId)))).toEqual(
      deletedAnswer(orderBumpId),
    );
    expect((await api.GET('/api/v1/order-bumps/{orderBumpId}', at(orderBumpId))).response.status).toBe(404);
  });

  test('listOrderBumps orders by position, then display order', async ({ api }) => {
    const { bumpBody } = await catalog(api);
    for (const [name, position, displayOrder] of [
      ['C', 1, 0],
      ['A', 0, 2],
      ['B', 0, 1],
      ['D', 0, 0],
    ] as const) {
      await api.POST('/api/v1/order-bumps', { body: { ...bumpBody, name, position, displayOrder } });
    }
    const list = await api.GET('/api/v1/order-bumps');
    expect(list.data?.data.orderBumps.map((bump) => bump.name)).toEqual(['D', 'B', 'A', 'C']);
  });

  test.for([
    ['PERCENT 33.33 of 29.90 (half-cent rounds up)', 'PERCENT', 33.33, 19.93],
    ['PERCENT 100 is free', 'PERCENT', 100, 0],
    ['FIXED 0.1 is exact', 'FIXED', 0.1, 29.8],
    ['FIXED above the price never goes below 0', 'FIXED', 50, 0],
  ] as const)(
    'createOrderBump computes discountedPrice in exact cents: %s',
    async ([, discountType, discountAmount, expected], { api }) => {
      const { bumpBody } = await catalog(api);
      const response = await api.POST('/api/v1/order-bumps', { body: { ...bumpBody, discountType, discountAmount } });
      expect(response.response.status).toBe(201);
      expect(response.data?.data.orderBump).toMatchObject({ price: 29.9, discountedPrice: expected });
    },
  );

  test('createOrderBump needs an image when the product has none (400 naming image), and keeps one that is sent', async ({
    api,
  }) => {
    const { ebook, bumpBody } = await catalog(api);
    const noImage = await api.POST('/api/v1/order-bumps', { body: { ...bumpBody, productId: ebook.id } });
    expect(noImage.response.status).toBe(400);
    expect(noImage.error).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
    expect(detailPaths(noImage.error)).toEqual(['image']);
    const image = 'https://cdn.example.com/ebook.png';
    const withImage = await api.POST('/api/v1/order-bumps', { body: { ...bumpBody, productId: ebook.id, image } });
    expect(withImage.response.status).toBe(201);
    expect(withImage.data?.data.orderBump.image).toBe(image);
  });

  test('createOrderBump prices a bump of a variant from the variant, and answers 422 for a variant of another product', async ({
    api,
    admin,
  }) => {
    const { shirt, ebook, bumpBody } = await catalog(api);
    const variant = await admin.POST('/admin/products/{productId}/variants', {
      params: { path: { productId: shirt.id } },
      body: withoutDefaults<VariantCreate>({ title: 'Branca / M', price: 35, stock: 3 }),
    });
    expect(variant.response.status).toBe(201);
    const productVariantId = variant.data?.data.variant.id ?? UNKNOWN;
    const priced = await api.POST('/api/v1/order-bumps', { body: { ...bumpBody, productVariantId } });
    expect(priced.response.status).toBe(201);
    expect(priced.data?.data.orderBump).toMatchObject({ productVariantId, price: 35, discountedPrice: 31.5 });
    const wrong = await api.POST('/api/v1/order-bumps', {
      body: { ...bumpBody, productId: ebook.id, image: 'https://cdn.example.com/e.png', productVariantId },
    });
    expect(wrong.response.status).toBe(422);
    expect(detailPaths(wrong.error)).toEqual(['productVariantId']);
  });

  test('createOrderBump and updateOrderBump answer 422 naming every bad product and category reference', async ({
    api,
    otherStore,
  }) => {
    const { ebook, categoryId, bumpBody } = await catalog(api);
    const foreign = await newProduct(otherStore, 'Produto Alheio');
    const response = await api.POST('/api/v1/order-bumps', {
      body: {
        ...bumpBody,
        productId: foreign.id,
        triggerProductIds: [ebook.id, UNKNOWN],
        targetCategoryIds: [UNKNOWN, categoryId],
      },
    });
    expect(response.response.status).toBe(422);
    expect(response.error).toMatchObject({ error: { code: 'REFERENCE_NOT_FOUND' } });
    expect(detailPaths(response.error)).toEqual(['productId', 'triggerProductIds.1', 'targetCategoryIds.0']);
    const bump = await api.POST('/api/v1/order-bumps', { body: bumpBody });
    const update = await api.PATCH('/api/v1/order-bumps/{orderBumpId}', {
      ...at(bump.data?.data.orderBump.id ?? UNKNOWN),
      body: { targetCategoryIds: [UNKNOWN] },
    });
    expect(update.response.status).toBe(422);
    expect(detailPaths(update.error)).toEqual(['targetCategoryIds.0']);
  });

  test.for([
    ['PERCENT above 100', { discountAmount: 101 }, 'discountAmount'],
    ['end not after start', { startsAt: '2030-01-02T00:00:00Z', endsAt: '2030-01-01T00:00:00Z' }, 'endsAt'],
    ['maxCartTotal below minCartTotal', { minCartTotal: 100, maxCartTotal: 50 }, 'maxCartTotal'],
    ['unknown type', { type: 'SERVICE' }, 'type'],
    ['position above 10000', { position: 10001 }, 'position'],
    ['image not a URI', { image: 'not a uri' }, 'image'],
  ] as const)('createOrderBump rejects %s with 400 naming the field', async ([, change, field], { api }) => {
    const { bumpBody } = await catalog(api);
    const response = await api.POST('/api/v1/order-bumps', { body: malformed({ ...bumpBody, ...change }) });
    expect(response.response.status).toBe(400);
    expect(detailPaths(response.error)).toContain(field);
  });

  test('updateOrderBump rejects a change that makes the resulting PERCENT discount exceed 100, and an empty body', async ({
    api,
  }) => {
    const { bumpBody } = await catalog(api);
    const bump = await api.POST('/api/v1/order-bumps', { body: bumpBody });
    const path = at(bump.data?.data.orderBump.id ?? UNKNOWN);
    const response = await api.PATCH('/api/v1/order-bumps/{orderBumpId}', { ...path, body: { discountAmount: 120 } });
    expect(response.response.status).toBe(400);
    expect(detailPaths(response.error)).toEqual(['discountAmount']);
    expect((await api.PATCH('/api/v1/order-bumps/{orderBumpId}', { ...path, body: {} })).response.status).toBe(400);
  });

  test('getOrderBumpById, updateOrderBump and deleteOrderBump are confined to the store and the scope; listOrderBumps bounds its pages', async ({
    api,
    otherStore,
    withScopes,
  }) => {
    const { bumpBody } = await catalog(api);
    await expectStoreScoped(
      {
        create: async (client) => {
          const reply = await client.POST('/api/v1/order-bumps', { body: bumpBody });
          return { ...reply, id: reply.data?.data.orderBump.id };
        },
        get: (client, id) => client.GET('/api/v1/order-bumps/{orderBumpId}', at(id)),
        update: (client, id) =>
          client.PATCH('/api/v1/order-bumps/{orderBumpId}', { ...at(id), body: { name: 'Outro' } }),
        remove: (client, id) => client.DELETE('/api/v1/order-bumps/{orderBumpId}', at(id)),
        list: (client, query) => client.GET('/api/v1/order-bumps', { params: { query } }),
      },
      { api, otherStore, withoutScope: await withScopes(['products:read']) },
    );
  });
});
