import { expect } from 'vitest';
import { UNKNOWN } from '../../../test/catalog.ts';
import { describeEngines, malformed, test, withoutDefaults } from '../../../test/fixture.ts';
import type { CouponCreate } from '../../../test/records.ts';
import type { ById } from '../../../test/store-scoped.ts';
import { expectInvalid, expectNotFoundAlike, expectPageBounds, expectScopeDenied } from '../../../test/store-scoped.ts';

/** A create body leaving `status` to its default. */
const couponOf = (code: string, discountType: CouponCreate['discountType'], discountAmount: number) =>
  withoutDefaults<CouponCreate>({ code, discountType, discountAmount });

describeEngines('coupons', () => {
  test('createCoupon fills the defaults; getCouponById reads it back; updateCoupon retires it; listCoupons filters', async ({
    api,
    tenant,
  }) => {
    const created = await api.POST('/api/v1/coupons', { body: couponOf('BEMVINDO10', 'PERCENT', 10) });
    expect(created.response.status).toBe(201);
    const coupon = created.data?.data.coupon;
    expect(created.data).toEqual({
      success: true,
      data: {
        coupon: {
          id: expect.any(String),
          storeId: tenant.storeId,
          code: 'BEMVINDO10',
          description: null,
          discountType: 'PERCENT',
          discountAmount: 10,
          minCartTotal: null,
          maxUses: null,
          usedCount: 0,
          startsAt: null,
          endsAt: null,
          status: 'ACTIVE',
          createdAt: expect.any(String),
          updatedAt: coupon?.createdAt,
        },
      },
    });
    const path = { couponId: coupon?.id ?? UNKNOWN };
    expect((await api.GET('/api/v1/coupons/{couponId}', { params: { path } })).data).toEqual(created.data);
    const retired = await api.PATCH('/api/v1/coupons/{couponId}', {
      params: { path },
      body: { status: 'INACTIVE', minCartTotal: 99.9, maxUses: 5 },
    });
    expect(retired.response.status).toBe(200);
    expect(retired.data?.data.coupon).toEqual({
      ...coupon,
      status: 'INACTIVE',
      minCartTotal: 99.9,
      maxUses: 5,
      updatedAt: expect.any(String),
    });
    const read = await api.GET('/api/v1/coupons/{couponId}', { params: { path } });
    expect(read.data?.data.coupon).toEqual(retired.data?.data.coupon);
    const inactive = await api.GET('/api/v1/coupons', {
      params: { query: { status: 'INACTIVE', search: 'bemvindo' } },
    });
    expect(inactive.data?.data).toEqual({
      coupons: [retired.data?.data.coupon],
      pagination: { page: 1, limit: 20, total: 1, totalPages: 1 },
    });
    const active = await api.GET('/api/v1/coupons', { params: { query: { status: 'ACTIVE', search: 'bemvindo' } } });
    expect(active.data?.data.coupons).toEqual([]);
  });

  test('coupons have no delete: DELETE answers 405 and getCouponById still finds the coupon', async ({
    api,
    server,
    tenant,
  }) => {
    const coupon = (await api.POST('/api/v1/coupons', { body: couponOf('FICA', 'FIXED', 5) })).data?.data.coupon;
    const path = { couponId: coupon?.id ?? UNKNOWN };
    // The typed client has no DELETE for this path, which is the point.
    const response = await fetch(`${server.baseUrl}/api/v1/coupons/${path.couponId}`, {
      method: 'DELETE',
      headers: tenant.headers,
    });
    expect(response.status).toBe(405);
    expect((await api.GET('/api/v1/coupons/{couponId}', { params: { path } })).response.status).toBe(200);
  });

  test('createCoupon and updateCoupon answer 409 DUPLICATE_ENTRY for a code used in the store', async ({
    api,
    otherStore,
  }) => {
    expect((await api.POST('/api/v1/coupons', { body: couponOf('DUPLO', 'FIXED', 5) })).response.status).toBe(201);
    const again = await api.POST('/api/v1/coupons', { body: couponOf('DUPLO', 'PERCENT', 5) });
    expect(again.response.status).toBe(409);
    expect(again.error).toMatchObject({ error: { code: 'DUPLICATE_ENTRY', details: [{ path: 'code' }] } });
    const elsewhere = await otherStore.POST('/api/v1/coupons', { body: couponOf('DUPLO', 'FIXED', 5) });
    expect(elsewhere.response.status).toBe(201);
    const second = (await api.POST('/api/v1/coupons', { body: couponOf('OUTRO', 'FIXED', 5) })).data?.data.coupon;
    const path = { couponId: second?.id ?? UNKNOWN };
    const collide = await api.PATCH('/api/v1/coupons/{couponId}', { params: { path }, body: { code: 'DUPLO' } });
    expect(collide.response.status).toBe(409);
    expect(collide.error).toMatchObject({ error: { details: [{ path: 'code' }] } });
    expect((await api.GET('/api/v1/coupons/{couponId}', { params: { path } })).data?.data.coupon.code).toBe('OUTRO');
    const same = await api.PATCH('/api/v1/coupons/{couponId}', {
      params: { path },
      body: { code: 'OUTRO', description: 'mesmo código' },
    });
    expect(same.response.status).toBe(200);
  });

  test('createCoupon creates exactly one coupon for concurrent creates of one code', async ({ api }) => {
    const responses = await Promise.all(
      Array.from({ length: 6 }, () => api.POST('/api/v1/coupons', { body: couponOf('CORRIDA', 'FIXED', 1) })),
    );
    expect(responses.filter(({ response }) => response.status === 201)).toHaveLength(1);
    for (const { response, error } of responses.filter(({ response }) => response.status !== 201)) {
      expect(response.status).toBe(409);
      expect(error).toMatchObject({ error: { code: 'DUPLICATE_ENTRY' } });
    }
    const list = await api.GET('/api/v1/coupons', { params: { query: { search: 'corrida' } } });
    expect(list.data?.data.pagination.total).toBe(1);
  });

  test.for([
    ['PERCENT above 100', { discountType: 'PERCENT', discountAmount: 100.5 }, 'discountAmount'],
    ['discountAmount 0', { discountType: 'FIXED', discountAmount: 0 }, 'discountAmount'],
    ['endsAt equal to startsAt', { startsAt: '2030-01-01T00:00:00Z', endsAt: '2030-01-01T00:00:00Z' }, 'endsAt'],
    ['endsAt before startsAt', { startsAt: '2030-01-02T00:00:00Z', endsAt: '2030-01-01T00:00:00Z' }, 'endsAt'],
    ['lower-case code', { code: 'promo10' }, 'code'],
    ['code too short', { code: 'AB' }, 'code'],
    ['maxUses 0', { maxUses: 0 }, 'maxUses'],
    ['usedCount sent', { usedCount: 3 }, 'usedCount'],
  ] as const)(
    'createCoupon rejects %s with 400 VALIDATION_ERROR naming the field',
    async ([, change, field], { api }) => {
      const body = malformed({ ...couponOf('REGRA', 'FIXED', 5), ...change });
      expectInvalid(await api.POST('/api/v1/coupons', { body }), field);
    },
  );

  test('updateCoupon checks the resulting coupon: PERCENT above 100 and the window', async ({ api }) => {
    const created = await api.POST('/api/v1/coupons', {
      body: { ...couponOf('FIXO150', 'FIXED', 150), startsAt: '2030-01-01T00:00:00Z' },
    });
    const coupon = created.data?.data.coupon;
    const path = { couponId: coupon?.id ?? UNKNOWN };
    const percent = await api.PATCH('/api/v1/coupons/{couponId}', {
      params: { path },
      body: { discountType: 'PERCENT' },
    });
    expect(percent.response.status).toBe(400);
    expect(percent.error).toMatchObject({ error: { details: [{ path: 'discountAmount' }] } });
    const window = await api.PATCH('/api/v1/coupons/{couponId}', {
      params: { path },
      body: { endsAt: '2029-12-31T00:00:00Z' },
    });
    expect(window.response.status).toBe(400);
    expect(window.error).toMatchObject({ error: { details: [{ path: 'endsAt' }] } });
    const usedCount = await api.PATCH('/api/v1/coupons/{couponId}', {
      params: { path },
      body: malformed({ usedCount: 1 }),
    });
    expect(usedCount.response.status).toBe(400);
    expect((await api.GET('/api/v1/coupons/{couponId}', { params: { path } })).data?.data.coupon).toEqual(coupon);
  });

  test('a date-time sent with another offset is stored and read back in UTC, one in UTC as sent; the window compares instants', async ({
    api,
  }) => {
    const created = await api.POST('/api/v1/coupons', {
      body: {
        ...couponOf('FUSO', 'PERCENT', 5),
        startsAt: '2030-03-01T00:00:00-03:00',
        endsAt: '2030-12-31T23:59:59.123456Z',
      },
    });
    expect(created.response.status).toBe(201);
    const coupon = created.data?.data.coupon;
    expect({ startsAt: coupon?.startsAt, endsAt: coupon?.endsAt }).toEqual({
      startsAt: '2030-03-01T03:00:00.000Z',
      endsAt: '2030-12-31T23:59:59.123456Z',
    });
    const path = { couponId: coupon?.id ?? UNKNOWN };
    const moved = await api.PATCH('/api/v1/coupons/{couponId}', {
      params: { path },
      body: { endsAt: '2031-01-01t05:30:00.5+05:30' },
    });
    expect(moved.data?.data.coupon).toEqual({
      ...coupon,
      endsAt: '2031-01-01T00:00:00.500Z',
      updatedAt: expect.any(String),
    });
    expect((await api.GET('/api/v1/coupons/{couponId}', { params: { path } })).data).toEqual(moved.data);
    // 02:00 in UTC is before the start, 03:00 in UTC, though its text sorts after the start as sent.
    const before = await api.PATCH('/api/v1/coupons/{couponId}', {
      params: { path },
      body: { endsAt: '2030-03-01T02:00:00Z' },
    });
    expect(before.response.status).toBe(400);
    expect(before.error).toMatchObject({ error: { details: [{ path: 'endsAt' }] } });
  });

  test('getCouponById and updateCoupon answer 404 for unknown and foreign ids; 403 without the scope; listCoupons bounds its pages', async ({
    api,
    otherStore,
    withScopes,
  }) => {
    const body = couponOf('ESCOPO', 'FIXED', 1);
    const created = await api.POST('/api/v1/coupons', { body });
    expect(created.response.status).toBe(201);
    const known = { couponId: created.data?.data.coupon.id ?? UNKNOWN };
    const read: ById = (client, couponId) =>
      client.GET('/api/v1/coupons/{couponId}', { params: { path: { couponId } } });
    const update: ById = (client, couponId) =>
      client.PATCH('/api/v1/coupons/{couponId}', { params: { path: { couponId } }, body: { status: 'INACTIVE' } });
    await expectNotFoundAlike([read, update], read, { api, otherStore }, known.couponId);

    const productsOnly = await withScopes(['products:read']);
    expectScopeDenied([
      await productsOnly.GET('/api/v1/coupons'),
      await productsOnly.POST('/api/v1/coupons', { body }),
      await read(productsOnly, known.couponId),
    ]);
    await expectPageBounds((query) => api.GET('/api/v1/coupons', { params: { query } }));
  });
});
