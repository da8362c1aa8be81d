// Type-level tests: `npm run typecheck` (tsc, part of `npm test`) fails when one of these stops holding; vitest
// runs the file too, where each `expectTypeOf` is a no-op. The calls sit in functions that are never invoked.
import { describe, expectTypeOf, it } from 'vitest';
import type { components, paths } from '../../generated/openapi-wire.ts';
import {
  createStorefrontClient,
  type IdempotentPostPath,
  type ItemOf,
  type PagedPath,
  type StorefrontApiError,
  verifyWebhook,
  type WebhookEvent,
} from '../src/index.ts';

type Schemas = components['schemas'];

const client = createStorefrontClient({
  baseUrl: 'http://127.0.0.1:9',
  apiKey: 'sf_live_x',
  storeId: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
});

describe('client types', () => {
  it('does not ask for X-Store-Id on any call, though the contract has it on every operation', () => {
    expectTypeOf<paths['/api/v1/products']['get']['parameters']['header']>().toHaveProperty('X-Store-Id');
    const calls = () => [
      client.GET('/api/v1/products'),
      client.GET('/api/v1/products/{productId}', { params: { path: { productId: 'p' } } }),
      client.POST('/api/v1/products', { body: { name: 'Caneca', type: 'DIGITAL', price: 10 } }),
      client.GET('/api/v1/webhooks', { params: { query: { page: 2, limit: 10 } } }),
    ];
    expectTypeOf(calls).returns.items.toBeObject();
  });

  it('still takes the other header parameters: Idempotency-Key on createProduct, typed', () => {
    const call = () =>
      client.POST('/api/v1/products', {
        params: { header: { 'Idempotency-Key': 'k-1' } },
        body: { name: 'Caneca', type: 'DIGITAL', price: 10 },
      });
    expectTypeOf(call).returns.resolves.toHaveProperty('data');
  });

  it('types bodies from the contract and rejects a wrong one', () => {
    const calls = () => [
      // @ts-expect-error price must be a number
      client.POST('/api/v1/products', { body: { name: 'Caneca', type: 'DIGITAL', price: '10' } }),
      // @ts-expect-error type is an enum
      client.POST('/api/v1/products', { body: { name: 'Caneca', type: 'SERVICE', price: 10 } }),
      // @ts-expect-error the body is required
      client.POST('/api/v1/products'),
      // @ts-expect-error the path parameter is required
      client.GET('/api/v1/products/{productId}'),
      // @ts-expect-error the store header is the client's: a call cannot pass it
      client.GET('/api/v1/products', { params: { header: { 'X-Store-Id': 'other' } } }),
      // @ts-expect-error an unknown path
      client.GET('/api/v1/unknown'),
      // @ts-expect-error the admin API is not the partner client's
      client.GET('/admin/stores'),
    ];
    expectTypeOf(calls).toBeFunction();
  });

  it('types answers from the contract: data is the success body, never undefined', () => {
    const read = async () =>
      (await client.GET('/api/v1/products/{productId}', { params: { path: { productId: 'p' } } })).data;
    // openapi-fetch maps the body through Readable<>, which flattens the allOf intersection of ProductWithVariants:
    // the same type, so each extends the other, though not written identically.
    expectTypeOf(read).returns.resolves.toExtend<Schemas['ProductWithVariantsResponse']>();
    expectTypeOf<Schemas['ProductWithVariantsResponse']>().toExtend<Awaited<ReturnType<typeof read>>>();
    const create = async () =>
      (await client.POST('/api/v1/products', { body: { name: 'Caneca', type: 'DIGITAL', price: 10 } })).data;
    expectTypeOf(create).returns.resolves.toEqualTypeOf<Schemas['ProductResponse']>();
  });

  it('iterates every paged list with its item type', () => {
    expectTypeOf<ItemOf<'/api/v1/products'>>().toEqualTypeOf<Schemas['Product']>();
    expectTypeOf<ItemOf<'/api/v1/webhooks'>>().toEqualTypeOf<Schemas['Webhook']>();
    expectTypeOf<'/api/v1/products'>().toExtend<PagedPath>();
    expectTypeOf<'/api/v1/products/{productId}'>().not.toExtend<PagedPath>();
    const all = () => client.listAll('/api/v1/orders', { params: { query: { limit: 100 } } });
    expectTypeOf(all).returns.toEqualTypeOf<AsyncIterableIterator<Schemas['Order']>>();
    // @ts-expect-error a single product is not a list
    const notAList = () => client.listAll('/api/v1/products/{productId}');
    expectTypeOf(notAList).toBeFunction();
  });

  it('knows the idempotent POSTs from the contract', () => {
    expectTypeOf<IdempotentPostPath>().toEqualTypeOf<'/api/v1/products'>();
  });

  it('carries status, code, message, details on its one error type', () => {
    expectTypeOf<StorefrontApiError['status']>().toEqualTypeOf<number>();
    expectTypeOf<StorefrontApiError['code']>().toEqualTypeOf<Schemas['ErrorCode'] | null>();
    expectTypeOf<StorefrontApiError['message']>().toEqualTypeOf<string>();
    expectTypeOf<StorefrontApiError['details']>().toEqualTypeOf<Schemas['ErrorDetail'][]>();
  });

  it('types webhook events from the contract, told apart by type', () => {
    expectTypeOf<WebhookEvent<'ORDER_PAID'>['data']>().toEqualTypeOf<Schemas['WebhookDeliveryOrder']['data']>();
    expectTypeOf<WebhookEvent<'ORDER_PAID'>['type']>().toEqualTypeOf<'ORDER_PAID'>();
    const handle = (event: WebhookEvent) => {
      if (event.type === 'PRODUCT_CREATED') return event.data.product;
      if (event.type === 'CART_ABANDONED') return event.data.abandonedCart;
      return undefined;
    };
    expectTypeOf(handle).returns.toEqualTypeOf<Schemas['Product'] | Schemas['AbandonedCart'] | undefined>();
    expectTypeOf(verifyWebhook).returns.toEqualTypeOf<WebhookEvent>();
  });
});
