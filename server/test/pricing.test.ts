import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTenant, engines, startServer, type Tenant, type TestServer } from './harness.ts';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const paths = (body: { error: { details: { path: string }[] } }) => body.error.details.map((d) => d.path);

describe.each(engines)('pricing (coupons, discount ranges, payment discounts) on %s', (engine) => {
  let server: TestServer;
  let tenant: Tenant;
  let other: Tenant;
  let productsOnly: Tenant;
  let productId: string;
  let foreignProductId: string;
  const v1 = (method: string, path: string, body?: unknown, who: Tenant = tenant) =>
    call(server.baseUrl, method, path, { headers: who.headers, ...(body !== undefined ? { body } : {}) });

  beforeAll(async () => {
    server = await startServer({ engine });
    tenant = await createTenant(server);
    other = await createTenant(server);
    productsOnly = await createTenant(server, ['products:read']);
    productId = (await v1('POST', '/api/v1/products', { name: 'Caneca', type: 'DIGITAL', price: 40 })).body.data.product
      .id;
    foreignProductId = (await v1('POST', '/api/v1/products', { name: 'Caneca', type: 'DIGITAL', price: 40 }, other))
      .body.data.product.id;
  });
  afterAll(() => server.close());

  describe('discount ranges', () => {
    const cartValue = () => ({
      name: 'Compre mais, pague menos',
      ruleType: 'CART_VALUE',
      tiers: [
        { minValue: 200, maxValue: null, discountType: 'PERCENT', discountAmount: 10 },
        { minValue: 100, maxValue: 199.99, discountType: 'FIXED', discountAmount: 15 },
      ],
    });

    it('creates a range with defaults and tiers ordered by position, reads, lists, updates and deletes it', async () => {
      const created = await v1('POST', '/api/v1/discount-ranges', cartValue());
      expect(created.status).toBe(201);
      const range = created.body.data.discountRange;
      expect(created.body).toEqual({
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
            updatedAt: range.createdAt,
          },
        },
      });
      expect((await v1('GET', `/api/v1/discount-ranges/${range.id}`)).body).toEqual(created.body);
      expect(
        (await v1('GET', '/api/v1/discount-ranges?active=true&limit=100')).body.data.discountRanges,
      ).toContainEqual(range);

      const updated = await v1('PATCH', `/api/v1/discount-ranges/${range.id}`, {
        ruleType: 'ITEM_QUANTITY',
        applyDiscountTo: 'ITEMS',
        itemRangeStart: 2,
        itemRangeEnd: 3,
        itemRangeOrderBy: 'PRICE_ASC',
        appliesToAllProducts: false,
        productIds: [productId],
        priority: 5,
        tiers: [
          { minQuantity: 5, discountType: 'PERCENT', discountAmount: 20, position: 1 },
          { minQuantity: 2, maxQuantity: 4, discountType: 'PERCENT', discountAmount: 5, position: 0 },
        ],
      });
      expect(updated.status).toBe(200);
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
      expect(updated.body.data.discountRange).toEqual({
        ...range,
        ruleType: 'ITEM_QUANTITY',
        applyDiscountTo: 'ITEMS',
        itemRangeStart: 2,
        itemRangeEnd: 3,
        itemRangeOrderBy: 'PRICE_ASC',
        appliesToAllProducts: false,
        productIds: [productId],
        priority: 5,
        tiers: [tier(2, 4, 5, 0), tier(5, null, 20, 1)],
        updatedAt: expect.any(String),
      });
      const tierIds = range.tiers.map((t: { id: string }) => t.id);
      expect(updated.body.data.discountRange.tiers.some((t: { id: string }) => tierIds.includes(t.id))).toBe(false);
      expect((await v1('GET', `/api/v1/discount-ranges/${range.id}`)).body.data.discountRange).toEqual(
        updated.body.data.discountRange,
      );
      const renamed = await v1('PATCH', `/api/v1/discount-ranges/${range.id}`, { name: 'Leve mais' });
      expect(renamed.body.data.discountRange.tiers).toEqual(updated.body.data.discountRange.tiers);
      expect((await v1('GET', '/api/v1/discount-ranges?active=false')).body.data.discountRanges).toEqual([]);
      expect((await v1('DELETE', `/api/v1/discount-ranges/${range.id}`)).status).toBe(204);
      expect((await v1('GET', `/api/v1/discount-ranges/${range.id}`)).status).toBe(404);
    });

    it.each([
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
    ])('rejects %s with 400 VALIDATION_ERROR naming the path', async (_name, change, expected) => {
      const response = await v1('POST', '/api/v1/discount-ranges', { ...cartValue(), ...change });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
      for (const path of expected) expect(paths(response.body)).toContain(path);
    });

    it('answers 422 naming each unknown or foreign product, on create and update', async () => {
      const response = await v1('POST', '/api/v1/discount-ranges', {
        ...cartValue(),
        appliesToAllProducts: false,
        productIds: [productId, UNKNOWN, foreignProductId],
      });
      expect(response.status).toBe(422);
      expect(response.body.error.code).toBe('REFERENCE_NOT_FOUND');
      expect(paths(response.body)).toEqual(['productIds.1', 'productIds.2']);
      const range = (await v1('POST', '/api/v1/discount-ranges', cartValue())).body.data.discountRange;
      const update = await v1('PATCH', `/api/v1/discount-ranges/${range.id}`, { productIds: [UNKNOWN] });
      expect(update.status).toBe(422);
      expect(paths(update.body)).toEqual(['productIds.0']);
    });

    it('checks existing tiers against a new ruleType on update', async () => {
      const range = (await v1('POST', '/api/v1/discount-ranges', cartValue())).body.data.discountRange;
      const response = await v1('PATCH', `/api/v1/discount-ranges/${range.id}`, { ruleType: 'ITEM_QUANTITY' });
      expect(response.status).toBe(400);
      expect(paths(response.body)).toEqual(['tiers.0.minQuantity', 'tiers.1.minQuantity']);
    });
  });

  it.each([
    [
      'discount-ranges',
      '/api/v1/discount-ranges',
      { name: 'R', ruleType: 'CART_VALUE', tiers: [{ minValue: 1, discountType: 'FIXED', discountAmount: 1 }] },
      true,
    ],
  ])(
    '%s: 404 for unknown and foreign ids, 403 without the scope, pagination bounds',
    async (_group, base, body, deletable) => {
      const store = await createTenant(server);
      const created = await v1('POST', base, body, store);
      expect(created.status).toBe(201);
      const id = (Object.values(created.body.data)[0] as { id: string }).id;
      const patch = { active: false, status: 'INACTIVE' };
      const methods = deletable ? ['GET', 'PATCH', 'DELETE'] : ['GET', 'PATCH'];
      for (const method of methods) {
        const change =
          method === 'PATCH' ? (base.endsWith('coupons') ? { status: patch.status } : { active: false }) : undefined;
        const unknown = await v1(method, `${base}/${UNKNOWN}`, change, store);
        expect(unknown.status).toBe(404);
        expect(unknown.body.error.code).toBe('RESOURCE_NOT_FOUND');
        const foreign = await v1(method, `${base}/${id}`, change, other);
        expect(foreign.status).toBe(404);
        expect(foreign.body.error).toEqual(unknown.body.error);
      }
      expect((await v1('GET', `${base}/${id}`, undefined, store)).status).toBe(200);
      for (const [method, path] of [
        ['GET', base],
        ['POST', base],
        ['GET', `${base}/${id}`],
      ] as const) {
        const denied = await v1(method, path, method === 'POST' ? body : undefined, productsOnly);
        expect(denied.status).toBe(403);
        expect(denied.body.error.code).toBe('AUTH_SCOPE_DENIED');
      }
      for (const query of ['limit=0', 'limit=101', 'page=0']) {
        const response = await v1('GET', `${base}?${query}`, undefined, store);
        expect(response.status).toBe(400);
        expect(paths(response.body)).toContain(query.split('=')[0]);
      }
    },
  );
});
