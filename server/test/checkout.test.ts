import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminHeaders, call, createTenant, engines, startServer, type Tenant, type TestServer } from './harness.ts';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';
const paths = (body: { error: { details: { path: string }[] } }) => body.error.details.map((d) => d.path);

describe.each(engines)('external checkout (payment links) on %s', (engine) => {
  let server: TestServer;
  let tenant: Tenant;
  let other: Tenant;
  let checkoutKey: string;
  let otherCheckoutKey: string;
  let mug: { id: string; name: string };
  let shirt: { id: string; name: string };
  let variant: { id: string; title: string };
  let foreignProductId: string;
  const v1 = (method: string, path: string, body?: unknown, who: Tenant = tenant) =>
    call(server.baseUrl, method, path, { headers: who.headers, ...(body !== undefined ? { body } : {}) });
  const checkout = (method: string, path: string, body?: unknown, key = checkoutKey) =>
    call(server.baseUrl, method, path, {
      headers: { 'x-api-key': key },
      ...(body !== undefined ? { body } : {}),
    });
  const issueCheckoutKey = async (storeId: string): Promise<string> => {
    const response = await call(server.baseUrl, 'POST', `/admin/stores/${storeId}/checkout-keys`, {
      headers: adminHeaders(server),
    });
    expect(response.status).toBe(201);
    return response.body.data.checkoutKey.key;
  };

  beforeAll(async () => {
    server = await startServer({ engine });
    tenant = await createTenant(server);
    other = await createTenant(server);
    checkoutKey = await issueCheckoutKey(tenant.storeId);
    otherCheckoutKey = await issueCheckoutKey(other.storeId);
    mug = (await v1('POST', '/api/v1/products', { name: 'Caneca', type: 'DIGITAL', price: 19.9 })).body.data.product;
    shirt = (
      await v1('POST', '/api/v1/products', { name: 'Camiseta', type: 'DIGITAL', price: 79.9, discountedPrice: 59.9 })
    ).body.data.product;
    variant = (
      await call(server.baseUrl, 'POST', `/admin/products/${shirt.id}/variants`, {
        headers: adminHeaders(server),
        body: { title: 'Azul / M', price: 0.1, stock: 5 },
      })
    ).body.data.variant;
    foreignProductId = (await v1('POST', '/api/v1/products', { name: 'Outra', type: 'DIGITAL', price: 5 }, other)).body
      .data.product.id;
    await v1('POST', '/api/v1/coupons', { code: 'DEZ', discountType: 'PERCENT', discountAmount: 10 });
    await v1('POST', '/api/v1/coupons', { code: 'VINTE', discountType: 'FIXED', discountAmount: 20 });
    await v1('POST', '/api/v1/coupons', { code: 'TUDO', discountType: 'FIXED', discountAmount: 5000 });
    await v1('POST', '/api/v1/coupons', {
      code: 'PARADO',
      discountType: 'FIXED',
      discountAmount: 1,
      status: 'INACTIVE',
    });
    await v1('POST', '/api/v1/coupons', {
      code: 'VENCIDO',
      discountType: 'FIXED',
      discountAmount: 1,
      startsAt: '2020-01-01T00:00:00Z',
      endsAt: '2020-02-01T00:00:00Z',
    });
    await v1('POST', '/api/v1/coupons', {
      code: 'MINIMO',
      discountType: 'FIXED',
      discountAmount: 1,
      minCartTotal: 1000,
    });
    await v1('POST', '/api/v1/coupons', { code: 'ALHEIO', discountType: 'FIXED', discountAmount: 1 }, other);
  });
  afterAll(() => server.close());

  it('creates a link priced from the catalog with exact totals, and reads it back', async () => {
    const before = Date.now();
    const created = await checkout('POST', '/checkout/payment-links', {
      cart: {
        items: [
          { productId: mug.id, quantity: 3 },
          { productId: shirt.id, quantity: 1 },
          { productId: shirt.id, variantId: variant.id, quantity: 2 },
        ],
        couponCode: 'DEZ',
      },
      customer: { name: 'Ana Souza', email: 'ana@example.com', documentType: 'CPF', documentNumber: '12345678901' },
      successUrl: 'https://loja.example.com/obrigado',
      expiresInMinutes: 30,
    });
    expect(created.status).toBe(201);
    const link = created.body.data.paymentLink;
    // 3 × 19.90 + 59.90 (promotion) + 2 × 0.10 = 119.80; 10% = 11.98; total 107.82
    expect(created.body).toEqual({
      success: true,
      data: {
        paymentLink: {
          id: expect.any(String),
          storeId: tenant.storeId,
          url: `https://pay.storefront.example.com/l/${link.id}`,
          status: 'ACTIVE',
          items: [
            { productId: mug.id, variantId: null, name: 'Caneca', quantity: 3, price: 19.9 },
            { productId: shirt.id, variantId: null, name: 'Camiseta', quantity: 1, price: 59.9 },
            { productId: shirt.id, variantId: variant.id, name: 'Camiseta - Azul / M', quantity: 2, price: 0.1 },
          ],
          subtotal: 119.8,
          discount: 11.98,
          total: 107.82,
          currency: 'BRL',
          expiresAt: expect.any(String),
          createdAt: expect.any(String),
          updatedAt: link.createdAt,
        },
      },
    });
    const lifetime = Date.parse(link.expiresAt) - Date.parse(link.createdAt);
    expect(lifetime).toBe(30 * 60_000);
    expect(Date.parse(link.createdAt)).toBeGreaterThanOrEqual(before - 1000);
    const read = await checkout('GET', `/checkout/payment-links/${link.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);
  });

  it.each([
    ['no coupon', undefined, 0, 59.7],
    ['a FIXED coupon, code typed in lower case', 'vinte', 20, 39.7],
    ['a FIXED coupon above the subtotal (total never below 0)', 'TUDO', 59.7, 0],
    ['a null coupon', null, 0, 59.7],
  ])('applies %s', async (_name, couponCode, discount, total) => {
    const response = await checkout('POST', '/checkout/payment-links', {
      cart: { items: [{ productId: mug.id, quantity: 3 }], ...(couponCode !== undefined ? { couponCode } : {}) },
    });
    expect(response.status).toBe(201);
    expect(response.body.data.paymentLink).toMatchObject({ subtotal: 59.7, discount, total });
    const lifetime =
      Date.parse(response.body.data.paymentLink.expiresAt) - Date.parse(response.body.data.paymentLink.createdAt);
    expect(lifetime).toBe(1440 * 60_000);
  });

  it.each([
    ['unknown', 'NAOEXISTE'],
    ['inactive', 'PARADO'],
    ['expired', 'VENCIDO'],
    ['below its minimum cart total', 'MINIMO'],
    ['of another store', 'ALHEIO'],
  ])('answers 422 naming cart.couponCode for a coupon that is %s', async (_name, couponCode) => {
    const response = await checkout('POST', '/checkout/payment-links', {
      cart: { items: [{ productId: mug.id, quantity: 1 }], couponCode },
    });
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('REFERENCE_NOT_FOUND');
    expect(paths(response.body)).toEqual(['cart.couponCode']);
  });

  it('answers 422 naming each unknown or foreign product and variant', async () => {
    const response = await checkout('POST', '/checkout/payment-links', {
      cart: {
        items: [
          { productId: mug.id, quantity: 1 },
          { productId: UNKNOWN, quantity: 1 },
          { productId: foreignProductId, quantity: 1 },
          { productId: mug.id, variantId: variant.id, quantity: 1 },
        ],
      },
    });
    expect(response.status).toBe(422);
    expect(paths(response.body)).toEqual([
      'cart.items.1.productId',
      'cart.items.2.productId',
      'cart.items.3.variantId',
    ]);
  });

  it.each([
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
  ])('rejects %s with 400 naming the field', async (_name, body, field) => {
    const response = await checkout('POST', '/checkout/payment-links', body);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(paths(response.body)).toContain(field);
  });

  it('accepts only the checkout key: a v1 Bearer key is 401 here, and the checkout key is 401 on v1', async () => {
    const body = { cart: { items: [{ productId: mug.id, quantity: 1 }] } };
    const bearer = await call(server.baseUrl, 'POST', '/checkout/payment-links', { headers: tenant.headers, body });
    expect(bearer.status).toBe(401);
    expect(bearer.body.error.code).toBe('AUTH_API_KEY_REQUIRED');
    const none = await call(server.baseUrl, 'POST', '/checkout/payment-links', { body });
    expect(none.status).toBe(401);
    const forged = await checkout('POST', '/checkout/payment-links', body, `sf_checkout_${'x'.repeat(43)}`);
    expect(forged.status).toBe(401);
    expect(forged.body.error.code).toBe('AUTH_API_KEY_REQUIRED');

    const onV1 = await call(server.baseUrl, 'GET', '/api/v1/coupons', {
      headers: { 'x-api-key': checkoutKey, 'x-store-id': tenant.storeId },
    });
    expect(onV1.status).toBe(401);
    expect(onV1.body.error.code).toBe('AUTH_API_KEY_REQUIRED');
    const asBearer = await call(server.baseUrl, 'GET', '/api/v1/coupons', {
      headers: { authorization: `Bearer ${checkoutKey}`, 'x-store-id': tenant.storeId },
    });
    expect(asBearer.status).toBe(401);
  });

  it("answers 404 for an unknown link and for another store's key", async () => {
    const link = (
      await checkout('POST', '/checkout/payment-links', { cart: { items: [{ productId: mug.id, quantity: 1 }] } })
    ).body.data.paymentLink;
    const unknown = await checkout('GET', `/checkout/payment-links/${UNKNOWN}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('RESOURCE_NOT_FOUND');
    const foreign = await checkout('GET', `/checkout/payment-links/${link.id}`, undefined, otherCheckoutKey);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toEqual(unknown.body.error);
    const notUuid = await checkout('GET', '/checkout/payment-links/abc');
    expect(notUuid.status).toBe(400);
    const own = await checkout(
      'POST',
      '/checkout/payment-links',
      { cart: { items: [{ productId: mug.id, quantity: 1 }] } },
      otherCheckoutKey,
    );
    expect(own.status).toBe(422);
    expect(paths(own.body)).toEqual(['cart.items.0.productId']);
  });
});
