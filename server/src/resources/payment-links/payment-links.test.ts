import createClient, { type Client } from 'openapi-fetch';
import { expect } from 'vitest';
import type { components, paths } from '../../../../generated/openapi.ts';
import { readContract } from '../../../../lib/contract.ts';
import { UNKNOWN } from '../../../test/catalog.ts';
import { asContractExample } from '../../../test/contract-example.ts';
import {
  type Api,
  test as base,
  describeEngines,
  malformed,
  type TestServer,
  withoutDefaults,
} from '../../../test/fixture.ts';
import type { PaymentLinkCreate, VariantCreate } from '../../../test/records.ts';

/** A link body leaving `expiresInMinutes` to its default. */
const linkOf = (link: Omit<PaymentLinkCreate, 'expiresInMinutes'>) => withoutDefaults<PaymentLinkCreate>(link);

/** A typed client of the contract sending only the given checkout key (`x-api-key`). */
const checkoutClient = (server: TestServer, key: string): Client<paths> =>
  createClient<paths>({ baseUrl: server.baseUrl, headers: { 'x-api-key': key } });

/**
 * The tenant's catalog and coupons, a checkout key for its store and one for another store (with a product and a
 * coupon of its own).
 */
const test = base.extend('shop', async ({ server, api, admin, tenant, otherTenant: other, otherStore: otherApi }) => {
  const issueKey = async (storeId: string) => {
    const { response, data } = await admin.POST('/admin/stores/{storeId}/checkout-keys', {
      params: { path: { storeId } },
    });
    expect(response.status).toBe(201);
    return data?.data.checkoutKey.key ?? '';
  };
  const productOf = async (client: Api, body: object) =>
    (await client.POST('/api/v1/products', { body: malformed({ type: 'DIGITAL', ...body }) })).data?.data.product.id ??
    UNKNOWN;
  const mug = await productOf(api, { name: 'Caneca', price: 19.9 });
  const shirt = await productOf(api, { name: 'Camiseta', price: 79.9, discountedPrice: 59.9 });
  const variant = (
    await admin.POST('/admin/products/{productId}/variants', {
      params: { path: { productId: shirt } },
      body: withoutDefaults<VariantCreate>({ title: 'Azul / M', price: 0.1, stock: 5 }),
    })
  ).data?.data.variant.id;
  const foreignProductId = await productOf(otherApi, { name: 'Outra', price: 5 });
  const coupon = (code: string, discountType: 'PERCENT' | 'FIXED', discountAmount: number, more = {}) =>
    withoutDefaults<components['schemas']['CouponCreate']>({
      code,
      discountType,
      discountAmount,
      ...more,
    });
  for (const body of [
    coupon('DEZ', 'PERCENT', 10),
    coupon('VINTE', 'FIXED', 20),
    coupon('TUDO', 'FIXED', 5000),
    coupon('PARADO', 'FIXED', 1, { status: 'INACTIVE' }),
    coupon('VENCIDO', 'FIXED', 1, { startsAt: '2020-01-01T00:00:00Z', endsAt: '2020-02-01T00:00:00Z' }),
    coupon('MINIMO', 'FIXED', 1, { minCartTotal: 1000 }),
  ]) {
    await api.POST('/api/v1/coupons', { body });
  }
  await otherApi.POST('/api/v1/coupons', { body: coupon('ALHEIO', 'FIXED', 1) });
  const checkoutKey = await issueKey(tenant.storeId);
  return {
    mug,
    shirt,
    variant: variant ?? UNKNOWN,
    foreignProductId,
    checkoutKey,
    checkout: checkoutClient(server, checkoutKey),
    otherCheckout: checkoutClient(server, await issueKey(other.storeId)),
  };
});

describeEngines('external checkout (payment links)', () => {
  test('createPaymentLink prices the link from the catalog with exact totals; getPaymentLinkById reads it back', async ({
    shop,
    tenant,
  }) => {
    const before = Date.now();
    const created = await shop.checkout.POST('/checkout/payment-links', {
      body: {
        cart: {
          items: [
            { productId: shop.mug, quantity: 3 },
            { productId: shop.shirt, quantity: 1 },
            { productId: shop.shirt, variantId: shop.variant, quantity: 2 },
          ],
          couponCode: 'DEZ',
        },
        customer: { name: 'Ana Souza', email: 'ana@example.com', documentType: 'CPF', documentNumber: '12345678901' },
        successUrl: 'https://loja.example.com/obrigado',
        expiresInMinutes: 30,
      },
    });
    expect(created.response.status).toBe(201);
    const link = created.data?.data.paymentLink;
    // 3 × 19.90 + 59.90 (promotion) + 2 × 0.10 = 119.80; 10% = 11.98; total 107.82
    expect(created.data).toEqual({
      success: true,
      data: {
        paymentLink: {
          id: expect.any(String),
          storeId: tenant.storeId,
          url: String(readContract().pointer('#/components/schemas/PaymentLink/properties/url/x-url-template')).replace(
            '{id}',
            link?.id ?? '',
          ),
          status: 'ACTIVE',
          items: [
            { productId: shop.mug, variantId: null, name: 'Caneca', quantity: 3, price: 19.9 },
            { productId: shop.shirt, variantId: null, name: 'Camiseta', quantity: 1, price: 59.9 },
            { productId: shop.shirt, variantId: shop.variant, name: 'Camiseta - Azul / M', quantity: 2, price: 0.1 },
          ],
          subtotal: 119.8,
          discount: 11.98,
          total: 107.82,
          currency: 'BRL',
          expiresAt: expect.any(String),
          createdAt: expect.any(String),
          updatedAt: link?.createdAt,
        },
      },
    });
    expect(Date.parse(link?.expiresAt ?? '') - Date.parse(link?.createdAt ?? '')).toBe(30 * 60_000);
    expect(Date.parse(link?.createdAt ?? '')).toBeGreaterThanOrEqual(before - 1000);
    const read = await shop.checkout.GET('/checkout/payment-links/{paymentLinkId}', {
      params: { path: { paymentLinkId: link?.id ?? UNKNOWN } },
    });
    expect(read.response.status).toBe(200);
    expect(read.data).toEqual(created.data);
  });

  test.for([
    ['no coupon', undefined, 0, 59.7],
    ['a FIXED coupon, code typed in lower case', 'vinte', 20, 39.7],
    ['a FIXED coupon above the subtotal (total never below 0)', 'TUDO', 59.7, 0],
    ['a null coupon', null, 0, 59.7],
  ] as const)('createPaymentLink applies %s', async ([, couponCode, discount, total], { shop }) => {
    const response = await shop.checkout.POST('/checkout/payment-links', {
      body: linkOf({
        cart: { items: [{ productId: shop.mug, quantity: 3 }], ...(couponCode !== undefined ? { couponCode } : {}) },
      }),
    });
    expect(response.response.status).toBe(201);
    const link = response.data?.data.paymentLink;
    expect(link).toMatchObject({ subtotal: 59.7, discount, total });
    expect(Date.parse(link?.expiresAt ?? '') - Date.parse(link?.createdAt ?? '')).toBe(1440 * 60_000);
  });

  test.for([
    ['unknown', 'NAOEXISTE'],
    ['inactive', 'PARADO'],
    ['expired', 'VENCIDO'],
    ['below its minimum cart total', 'MINIMO'],
    ['of another store', 'ALHEIO'],
  ] as const)(
    'createPaymentLink answers 422 naming cart.couponCode for a coupon that is %s',
    async ([, couponCode], { shop }) => {
      const { response, error } = await shop.checkout.POST('/checkout/payment-links', {
        body: linkOf({ cart: { items: [{ productId: shop.mug, quantity: 1 }], couponCode } }),
      });
      expect(response.status).toBe(422);
      expect(error).toMatchObject({ error: { code: 'REFERENCE_NOT_FOUND', details: [{ path: 'cart.couponCode' }] } });
    },
  );

  test('createPaymentLink answers an inactive coupon exactly as the contract example CouponNotApplicable', async ({
    shop,
  }) => {
    const { error } = await shop.checkout.POST('/checkout/payment-links', {
      body: linkOf({ cart: { items: [{ productId: shop.mug, quantity: 1 }], couponCode: ' parado ' } }),
    });
    expect(error).toEqual(asContractExample('CouponNotApplicable'));
  });

  test('createPaymentLink answers a subtotal over the largest amount exactly as the contract example RulePaymentLinkSubtotalCap', async ({
    shop,
    api,
  }) => {
    // 999999.99 itself is a link; one cent more is not.
    const product = async (price: number) =>
      (await api.POST('/api/v1/products', { body: malformed({ type: 'DIGITAL', name: `Lote ${price}`, price }) })).data
        ?.data.product.id ?? UNKNOWN;
    const link = (productId: string, quantity: number) =>
      shop.checkout.POST('/checkout/payment-links', { body: linkOf({ cart: { items: [{ productId, quantity }] } }) });
    const atCap = await link(await product(333333.33), 3);
    expect(atCap.data?.data.paymentLink.subtotal).toBe(999999.99);
    const over = await link(await product(500000), 2);
    expect({ status: over.response.status, error: over.error }).toEqual({
      status: 400,
      error: asContractExample('RulePaymentLinkSubtotalCap'),
    });
  });

  test("a variant's line is named `<product> - <variant>`, cut to the contract's maxLength in code points", async ({
    shop,
    api,
    admin,
  }) => {
    // 100 + 3 + 149 characters, then emoji: the 255th UTF-16 unit is the first half of the second one.
    const name = 'P'.repeat(100);
    const title = 'T'.repeat(149);
    const product = (await api.POST('/api/v1/products', { body: malformed({ type: 'DIGITAL', name, price: 5 }) })).data
      ?.data.product.id;
    const variant = await admin.POST('/admin/products/{productId}/variants', {
      params: { path: { productId: product ?? UNKNOWN } },
      body: withoutDefaults<VariantCreate>({ title: `${title}${'😀'.repeat(10)}`, price: 5 }),
    });
    const created = await shop.checkout.POST('/checkout/payment-links', {
      body: linkOf({
        cart: { items: [{ productId: product ?? UNKNOWN, variantId: variant.data?.data.variant.id, quantity: 1 }] },
      }),
    });
    expect(created.response.status).toBe(201);
    const read = await shop.checkout.GET('/checkout/payment-links/{paymentLinkId}', {
      params: { path: { paymentLinkId: created.data?.data.paymentLink.id ?? UNKNOWN } },
    });
    expect(read.data?.data.paymentLink.items.map((item) => item.name)).toEqual([`${name} - ${title}${'😀'.repeat(3)}`]);
  });

  test('createPaymentLink answers 422 naming each unknown or foreign product and variant', async ({ shop }) => {
    const { response, error } = await shop.checkout.POST('/checkout/payment-links', {
      body: linkOf({
        cart: {
          items: [
            { productId: shop.mug, quantity: 1 },
            { productId: UNKNOWN, quantity: 1 },
            { productId: shop.foreignProductId, quantity: 1 },
            { productId: shop.mug, variantId: shop.variant, quantity: 1 },
          ],
        },
      }),
    });
    expect(response.status).toBe(422);
    expect(error).toMatchObject({
      error: {
        details: [
          { path: 'cart.items.1.productId' },
          { path: 'cart.items.2.productId' },
          { path: 'cart.items.3.variantId' },
        ],
      },
    });
  });

  test.for([
    ['no items', { cart: { items: [] } }, 'cart.items'],
    ['quantity 0', { cart: { items: [{ productId: UNKNOWN, quantity: 0 }] } }, 'cart.items.0.quantity'],
    ['a price sent', { cart: { items: [{ productId: UNKNOWN, quantity: 1, price: 1 }] } }, 'cart.items.0.price'],
    [
      'expiresInMinutes below 5',
      { cart: { items: [{ productId: UNKNOWN, quantity: 1 }] }, expiresInMinutes: 4 },
      'expiresInMinutes',
    ],
    [
      'a CNPJ with 11 digits',
      {
        cart: { items: [{ productId: UNKNOWN, quantity: 1 }] },
        customer: { name: 'Empresa', email: 'e@example.com', documentType: 'CNPJ', documentNumber: '12345678901' },
      },
      'customer.documentNumber',
    ],
  ] as const)('createPaymentLink rejects %s with 400 naming the field', async ([, body, field], { shop }) => {
    const { response, error } = await shop.checkout.POST('/checkout/payment-links', { body: malformed(body) });
    expect(response.status).toBe(400);
    expect(error).toMatchObject({
      error: { code: 'VALIDATION_ERROR', details: expect.arrayContaining([expect.objectContaining({ path: field })]) },
    });
  });

  test('createPaymentLink accepts only the checkout key: a v1 Bearer key is 401 here, and the checkout key is 401 on listCoupons', async ({
    shop,
    server,
    tenant,
  }) => {
    const body = linkOf({ cart: { items: [{ productId: shop.mug, quantity: 1 }] } });
    const asTenant = createClient<paths>({ baseUrl: server.baseUrl, headers: tenant.headers });
    const bearer = await asTenant.POST('/checkout/payment-links', { body });
    expect(bearer.response.status).toBe(401);
    expect(bearer.error).toMatchObject({ error: { code: 'AUTH_API_KEY_REQUIRED' } });
    const none = await createClient<paths>({ baseUrl: server.baseUrl }).POST('/checkout/payment-links', { body });
    expect(none.response.status).toBe(401);
    const forged = await checkoutClient(server, `sf_checkout_${'x'.repeat(43)}`).POST('/checkout/payment-links', {
      body,
    });
    expect(forged.response.status).toBe(401);
    expect(forged.error).toMatchObject({ error: { code: 'AUTH_API_KEY_REQUIRED' } });

    const store = { 'X-Store-Id': tenant.storeId };
    const onV1 = await shop.checkout.GET('/api/v1/coupons', { params: { header: store } });
    expect(onV1.response.status).toBe(401);
    expect(onV1.error).toMatchObject({ error: { code: 'AUTH_API_KEY_REQUIRED' } });
    const asBearer = await createClient<paths>({
      baseUrl: server.baseUrl,
      headers: { authorization: `Bearer ${shop.checkoutKey}` },
    }).GET('/api/v1/coupons', { params: { header: store } });
    expect(asBearer.response.status).toBe(401);
  });

  test("getPaymentLinkById answers 404 for an unknown link and for another store's key", async ({ shop }) => {
    const link = (
      await shop.checkout.POST('/checkout/payment-links', {
        body: linkOf({ cart: { items: [{ productId: shop.mug, quantity: 1 }] } }),
      })
    ).data?.data.paymentLink;
    const read = (client: Client<paths>, paymentLinkId: string) =>
      client.GET('/checkout/payment-links/{paymentLinkId}', { params: { path: { paymentLinkId } } });
    const unknown = await read(shop.checkout, UNKNOWN);
    expect(unknown.response.status).toBe(404);
    expect(unknown.error).toMatchObject({ error: { code: 'RESOURCE_NOT_FOUND' } });
    const foreign = await read(shop.otherCheckout, link?.id ?? UNKNOWN);
    expect(foreign.response.status).toBe(404);
    expect(foreign.error?.error).toEqual(unknown.error?.error);
    expect((await read(shop.checkout, 'abc')).response.status).toBe(400);
    const own = await shop.otherCheckout.POST('/checkout/payment-links', {
      body: linkOf({ cart: { items: [{ productId: shop.mug, quantity: 1 }] } }),
    });
    expect(own.response.status).toBe(422);
    expect(own.error).toMatchObject({ error: { details: [{ path: 'cart.items.0.productId' }] } });
  });
});
