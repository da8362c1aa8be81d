import { expect } from 'vitest';
import { naming, UNKNOWN } from '../../../test/catalog.ts';
import { deletedAnswer, deletion } from '../../../test/deletion.ts';
import { describeEngines, malformed, test, withoutDefaults } from '../../../test/fixture.ts';
import type { PaymentDiscountCreate } from '../../../test/records.ts';
import { expectStoreScoped } from '../../../test/store-scoped.ts';

/** A create body leaving `active` to its default. */
const discountOf = (paymentMethod: PaymentDiscountCreate['paymentMethod'], percentage: number) =>
  withoutDefaults<PaymentDiscountCreate>({ paymentMethod, percentage });

describeEngines('payment discounts', () => {
  test('createPaymentDiscount makes one per method; getPaymentDiscountById, listPaymentDiscounts, updatePaymentDiscount and deletePaymentDiscount (freeing the method)', async ({
    api,
    otherStore,
    tenant,
  }) => {
    const created = await api.POST('/api/v1/payment-discounts', { body: discountOf('PIX', 5) });
    expect(created.response.status).toBe(201);
    const discount = created.data?.data.paymentDiscount;
    expect(created.data).toEqual({
      success: true,
      data: {
        paymentDiscount: {
          id: expect.any(String),
          storeId: tenant.storeId,
          paymentMethod: 'PIX',
          percentage: 5,
          active: true,
          createdAt: expect.any(String),
          updatedAt: discount?.createdAt,
        },
      },
    });
    const path = { paymentDiscountId: discount?.id ?? UNKNOWN };
    expect((await api.GET('/api/v1/payment-discounts/{paymentDiscountId}', { params: { path } })).data).toEqual(
      created.data,
    );
    const listed = await api.GET('/api/v1/payment-discounts', {
      params: { query: { paymentMethod: 'PIX', active: true } },
    });
    expect(listed.data?.data).toEqual({
      paymentDiscounts: [discount],
      pagination: { page: 1, limit: 20, total: 1, totalPages: 1 },
    });
    const second = await api.POST('/api/v1/payment-discounts', { body: discountOf('PIX', 7) });
    expect(second.response.status).toBe(409);
    expect(second.error).toMatchObject({ error: { code: 'DUPLICATE_ENTRY', details: [{ path: 'paymentMethod' }] } });

    const boleto = (await api.POST('/api/v1/payment-discounts', { body: discountOf('BOLETO', 3) })).data?.data
      .paymentDiscount;
    const boletoPath = { paymentDiscountId: boleto?.id ?? UNKNOWN };
    const move = await api.PATCH('/api/v1/payment-discounts/{paymentDiscountId}', {
      params: { path: boletoPath },
      body: { paymentMethod: 'PIX' },
    });
    expect(move.response.status).toBe(409);
    expect(move.error).toMatchObject({ error: { code: 'DUPLICATE_ENTRY', details: [{ path: 'paymentMethod' }] } });
    const updated = await api.PATCH('/api/v1/payment-discounts/{paymentDiscountId}', {
      params: { path: boletoPath },
      body: { paymentMethod: 'CARD', percentage: 2.5, active: false },
    });
    expect(updated.response.status).toBe(200);
    expect(updated.data?.data.paymentDiscount).toEqual({
      ...boleto,
      paymentMethod: 'CARD',
      percentage: 2.5,
      active: false,
      updatedAt: expect.any(String),
    });
    const inactive = await api.GET('/api/v1/payment-discounts', { params: { query: { active: false } } });
    expect(inactive.data?.data.paymentDiscounts).toEqual([updated.data?.data.paymentDiscount]);

    const deleted = deletion(api.DELETE('/api/v1/payment-discounts/{paymentDiscountId}', { params: { path } }));
    expect(await deleted).toEqual(deletedAnswer(path.paymentDiscountId));
    expect((await api.GET('/api/v1/payment-discounts/{paymentDiscountId}', { params: { path } })).response.status).toBe(
      404,
    );
    const pix = discountOf('PIX', 6);
    expect((await api.POST('/api/v1/payment-discounts', { body: pix })).response.status).toBe(201);
    expect((await otherStore.POST('/api/v1/payment-discounts', { body: pix })).response.status).toBe(201);
  });

  test('createPaymentDiscount leaves exactly one discount for concurrent creates of one method', async ({ api }) => {
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) => api.POST('/api/v1/payment-discounts', { body: discountOf('BOLETO', i + 1) })),
    );
    expect(responses.filter(({ response }) => response.status === 201)).toHaveLength(1);
    for (const { response, error } of responses.filter(({ response }) => response.status !== 201)) {
      expect(response.status).toBe(409);
      expect(error).toMatchObject({ error: { code: 'DUPLICATE_ENTRY' } });
    }
    expect((await api.GET('/api/v1/payment-discounts')).data?.data.pagination.total).toBe(1);
  });

  test.for([
    ['percentage 0', { paymentMethod: 'PIX', percentage: 0 }, 'percentage'],
    ['percentage above 100', { paymentMethod: 'PIX', percentage: 100.01 }, 'percentage'],
    ['unknown method', { paymentMethod: 'CRYPTO', percentage: 5 }, 'paymentMethod'],
    ['missing method', { percentage: 5 }, 'paymentMethod'],
  ] as const)('createPaymentDiscount rejects %s with 400 naming the field', async ([, body, field], { api }) => {
    const { response, error } = await api.POST('/api/v1/payment-discounts', { body: malformed(body) });
    expect(response.status).toBe(400);
    expect(error).toMatchObject(naming(field));
  });

  test('getPaymentDiscountById, updatePaymentDiscount and deletePaymentDiscount answer 404 for unknown and foreign ids; 403 without the scope; listPaymentDiscounts bounds its pages', async ({
    api,
    otherStore,
    withScopes,
  }) => {
    const body = discountOf('CARD', 1);
    await expectStoreScoped(
      {
        create: async (client) => {
          const reply = await client.POST('/api/v1/payment-discounts', { body });
          return { ...reply, id: reply.data?.data.paymentDiscount.id };
        },
        get: (client, paymentDiscountId) =>
          client.GET('/api/v1/payment-discounts/{paymentDiscountId}', { params: { path: { paymentDiscountId } } }),
        update: (client, paymentDiscountId) =>
          client.PATCH('/api/v1/payment-discounts/{paymentDiscountId}', {
            params: { path: { paymentDiscountId } },
            body: { active: false },
          }),
        remove: (client, paymentDiscountId) =>
          client.DELETE('/api/v1/payment-discounts/{paymentDiscountId}', { params: { path: { paymentDiscountId } } }),
        list: (client, query) => client.GET('/api/v1/payment-discounts', { params: { query } }),
      },
      { api, otherStore, withoutScope: await withScopes(['products:read']) },
    );
  });
});
