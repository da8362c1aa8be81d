import { expect } from 'vitest';
import { naming, UNKNOWN } from '../../../test/catalog.ts';
import { deletedAnswer, deletion } from '../../../test/deletion.ts';
import { type Api, describeEngines, malformed, test, withoutDefaults } from '../../../test/fixture.ts';
import type { DiscountRangeCreate } from '../../../test/records.ts';
import { expectStoreScoped } from '../../../test/store-scoped.ts';

/** A CART_VALUE range leaving every defaulted field to its default; tiers sent in reverse order of value. */
const cartValue = () =>
  withoutDefaults<DiscountRangeCreate>({
    name: 'Compre mais, pague menos',
    ruleType: 'CART_VALUE',
    tiers: [
      { minValue: 200, maxValue: null, discountType: 'PERCENT', discountAmount: 10 },
      { minValue: 100, maxValue: 199.99, discountType: 'FIXED', discountAmount: 15 },
    ],
  });
const productOf = async (client: Api) =>
  (await client.POST('/api/v1/products', { body: malformed({ name: 'Caneca', type: 'DIGITAL', price: 40 }) })).data
    ?.data.product.id ?? UNKNOWN;

describeEngines('discount ranges', () => {
  test('createDiscountRange fills the defaults and orders tiers by position; getDiscountRangeById, listDiscountRanges, updateDiscountRange and deleteDiscountRange', async ({
    api,
    tenant,
  }) => {
    const productId = await productOf(api);
    const created = await api.POST('/api/v1/discount-ranges', { body: cartValue() });
    expect(created.response.status).toBe(201);
    const range = created.data?.data.discountRange;
    expect(created.data).toEqual({
      success: true,
      data: {
        discountRange: {
          id: expect.any(String),
          storeId: tenant.storeId,
          name: 'Compre mais, pague menos',
          ruleType: 'CART_VALUE',
          appliesToAllProducts: true,
          applyDiscountTo: 'ENTIRE_CART',
          itemRangeStart: null,
          itemRangeEnd: null,
          itemRangeOrderBy: null,
          startAt: null,
          endAt: null,
          active: true,
          priority: 0,
          tiers: [
            {
              id: expect.any(String),
              minValue: 200,
              maxValue: null,
              minQuantity: null,
              maxQuantity: null,
              discountType: 'PERCENT',
              discountAmount: 10,
              position: 0,
            },
            {
              id: expect.any(String),
              minValue: 100,
              maxValue: 199.99,
              minQuantity: null,
              maxQuantity: null,
              discountType: 'FIXED',
              discountAmount: 15,
              position: 1,
            },
          ],
          productIds: [],
          createdAt: expect.any(String),
          updatedAt: range?.createdAt,
        },
      },
    });
    const path = { discountRangeId: range?.id ?? UNKNOWN };
    expect((await api.GET('/api/v1/discount-ranges/{discountRangeId}', { params: { path } })).data).toEqual(
      created.data,
    );
    const active = await api.GET('/api/v1/discount-ranges', { params: { query: { active: true, limit: 100 } } });
    expect(active.data?.data.discountRanges).toContainEqual(range);

    const changes = {
      ruleType: 'ITEM_QUANTITY',
      applyDiscountTo: 'ITEMS',
      itemRangeStart: 2,
      itemRangeEnd: 3,
      itemRangeOrderBy: 'PRICE_ASC',
      appliesToAllProducts: false,
      productIds: [productId],
      priority: 5,
    } satisfies Partial<DiscountRangeCreate>;
    const updated = await api.PATCH('/api/v1/discount-ranges/{discountRangeId}', {
      params: { path },
      body: {
        ...changes,
        tiers: [
          { minQuantity: 5, discountType: 'PERCENT', discountAmount: 20, position: 1 },
          { minQuantity: 2, maxQuantity: 4, discountType: 'PERCENT', discountAmount: 5, position: 0 },
        ],
      },
    });
    expect(updated.response.status).toBe(200);
    const tier = (minQuantity: number, maxQuantity: number | null, discountAmount: number, position: number) => ({
      id: expect.any(String),
      minValue: null,
      maxValue: null,
      minQuantity,
      maxQuantity,
      discountType: 'PERCENT',
      discountAmount,
      position,
    });
    const changed = updated.data?.data.discountRange;
    expect(changed).toEqual({
      ...range,
      ...changes,
      tiers: [tier(2, 4, 5, 0), tier(5, null, 20, 1)],
      updatedAt: expect.any(String),
    });
    const tierIds = range?.tiers.map((t) => t.id) ?? [];
    expect(changed?.tiers.some((t) => tierIds.includes(t.id))).toBe(false);
    const read = await api.GET('/api/v1/discount-ranges/{discountRangeId}', { params: { path } });
    expect(read.data?.data.discountRange).toEqual(changed);
    const renamed = await api.PATCH('/api/v1/discount-ranges/{discountRangeId}', {
      params: { path },
      body: { name: 'Leve mais' },
    });
    expect(renamed.data?.data.discountRange.tiers).toEqual(changed?.tiers);
    const inactive = await api.GET('/api/v1/discount-ranges', { params: { query: { active: false } } });
    expect(inactive.data?.data.discountRanges).toEqual([]);
    const deleted = deletion(api.DELETE('/api/v1/discount-ranges/{discountRangeId}', { params: { path } }));
    expect(await deleted).toEqual(deletedAnswer(path.discountRangeId));
    expect((await api.GET('/api/v1/discount-ranges/{discountRangeId}', { params: { path } })).response.status).toBe(
      404,
    );
  });

  test.for([
    [
      'overlapping tiers',
      {
        tiers: [
          { minValue: 100, maxValue: 200, discountType: 'FIXED', discountAmount: 5 },
          { minValue: 150, discountType: 'FIXED', discountAmount: 10 },
        ],
      },
      ['tiers.1.minValue'],
    ],
    [
      'an open-ended tier below another',
      {
        tiers: [
          { minValue: 300, discountType: 'FIXED', discountAmount: 5 },
          { minValue: 100, discountType: 'FIXED', discountAmount: 10 },
        ],
      },
      ['tiers.1.minValue'],
    ],
    [
      'a tier without the lower bound its ruleType needs',
      { tiers: [{ minQuantity: 2, discountType: 'FIXED', discountAmount: 5 }] },
      ['tiers.0.minValue'],
    ],
    [
      'a PERCENT tier above 100',
      { tiers: [{ minValue: 10, discountType: 'PERCENT', discountAmount: 101 }] },
      ['tiers.0.discountAmount'],
    ],
    [
      'a tier whose upper bound is below the lower',
      { tiers: [{ minValue: 10, maxValue: 5, discountType: 'FIXED', discountAmount: 1 }] },
      ['tiers.0.maxValue'],
    ],
    [
      'two tiers with one position',
      {
        tiers: [
          { minValue: 10, maxValue: 20, discountType: 'FIXED', discountAmount: 1, position: 0 },
          { minValue: 30, discountType: 'FIXED', discountAmount: 1, position: 0 },
        ],
      },
      ['tiers.1.position'],
    ],
    ['no products when not all products', { appliesToAllProducts: false }, ['productIds']],
    ['ITEMS without itemRangeStart', { applyDiscountTo: 'ITEMS' }, ['itemRangeStart']],
    [
      'itemRangeEnd below itemRangeStart',
      { applyDiscountTo: 'ITEMS', itemRangeStart: 3, itemRangeEnd: 2 },
      ['itemRangeEnd'],
    ],
    ['an item range for ENTIRE_CART', { itemRangeStart: 1 }, ['itemRangeStart']],
    ['endAt not after startAt', { startAt: '2030-01-01T00:00:00Z', endAt: '2029-01-01T00:00:00Z' }, ['endAt']],
    ['no tiers', { tiers: [] }, ['tiers']],
    ['unknown ruleType', { ruleType: 'WEIGHT' }, ['ruleType']],
  ] as const)(
    'createDiscountRange rejects %s with 400 VALIDATION_ERROR naming the path',
    async ([, change, expected], { api }) => {
      const { response, error } = await api.POST('/api/v1/discount-ranges', {
        body: malformed({ ...cartValue(), ...change }),
      });
      expect(response.status).toBe(400);
      expect(error).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
      for (const path of expected) expect(error).toMatchObject(naming(path));
    },
  );

  test('createDiscountRange and updateDiscountRange answer 422 naming each unknown or foreign product', async ({
    api,
    otherStore,
  }) => {
    const productId = await productOf(api);
    const foreignProductId = await productOf(otherStore);
    const response = await api.POST('/api/v1/discount-ranges', {
      body: { ...cartValue(), appliesToAllProducts: false, productIds: [productId, UNKNOWN, foreignProductId] },
    });
    expect(response.response.status).toBe(422);
    expect(response.error).toMatchObject({
      error: { code: 'REFERENCE_NOT_FOUND', details: [{ path: 'productIds.1' }, { path: 'productIds.2' }] },
    });
    const range = (await api.POST('/api/v1/discount-ranges', { body: cartValue() })).data?.data.discountRange;
    const update = await api.PATCH('/api/v1/discount-ranges/{discountRangeId}', {
      params: { path: { discountRangeId: range?.id ?? UNKNOWN } },
      body: { productIds: [UNKNOWN] },
    });
    expect(update.response.status).toBe(422);
    expect(update.error).toMatchObject({ error: { details: [{ path: 'productIds.0' }] } });
  });

  test('updateDiscountRange checks the existing tiers against a new ruleType', async ({ api }) => {
    const range = (await api.POST('/api/v1/discount-ranges', { body: cartValue() })).data?.data.discountRange;
    const response = await api.PATCH('/api/v1/discount-ranges/{discountRangeId}', {
      params: { path: { discountRangeId: range?.id ?? UNKNOWN } },
      body: { ruleType: 'ITEM_QUANTITY' },
    });
    expect(response.response.status).toBe(400);
    expect(response.error).toMatchObject({
      error: { details: [{ path: 'tiers.0.minQuantity' }, { path: 'tiers.1.minQuantity' }] },
    });
  });

  test('getDiscountRangeById, updateDiscountRange and deleteDiscountRange answer 404 for unknown and foreign ids; 403 without the scope; listDiscountRanges bounds its pages', async ({
    api,
    otherStore,
    withScopes,
  }) => {
    const body = withoutDefaults<DiscountRangeCreate>({
      name: 'R',
      ruleType: 'CART_VALUE',
      tiers: [{ minValue: 1, discountType: 'FIXED', discountAmount: 1 }],
    });
    await expectStoreScoped(
      {
        create: async (client) => {
          const reply = await client.POST('/api/v1/discount-ranges', { body });
          return { ...reply, id: reply.data?.data.discountRange.id };
        },
        get: (client, discountRangeId) =>
          client.GET('/api/v1/discount-ranges/{discountRangeId}', { params: { path: { discountRangeId } } }),
        update: (client, discountRangeId) =>
          client.PATCH('/api/v1/discount-ranges/{discountRangeId}', {
            params: { path: { discountRangeId } },
            body: { active: false },
          }),
        remove: (client, discountRangeId) =>
          client.DELETE('/api/v1/discount-ranges/{discountRangeId}', { params: { path: { discountRangeId } } }),
        list: (client, query) => client.GET('/api/v1/discount-ranges', { params: { query } }),
      },
      { api, otherStore, withoutScope: await withScopes(['products:read']) },
    );
  });
});
