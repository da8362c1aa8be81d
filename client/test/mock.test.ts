import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { components } from '../../generated/openapi-wire.ts';
import { readContract } from '../../lib/contract.ts';
import {
  createStorefrontClient,
  newWebhookSecret,
  StorefrontApiError,
  verifyWebhook,
  type WebhookEvent,
  WebhookVerificationError,
} from '../src/index.ts';
import { type MockTarget, STARTUP_MS, startMockTarget } from './targets.ts';

const contract = readContract();
/** The first documented example of an operation's response: what the mock answers. */
const example = (urlPath: string, method: string, status: string) =>
  contract.firstExample(contract.pointer(`/paths/${urlPath.replaceAll('/', '~1')}/${method}/responses/${status}`));

async function rejection(promise: Promise<unknown>): Promise<StorefrontApiError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof StorefrontApiError)) throw new Error(`expected a StorefrontApiError, got ${String(error)}`);
  return error;
}

describe('the client against the mock', () => {
  let mock: MockTarget;

  beforeAll(async () => {
    mock = await startMockTarget();
  }, STARTUP_MS);
  afterAll(() => mock.stop(), STARTUP_MS);

  it('creates, reads and lists every product with the contract examples as answers', async () => {
    const client = createStorefrontClient({ ...mock.partner });
    const created = await client.POST('/api/v1/products', {
      body: { name: 'Camiseta Básica', type: 'DIGITAL', price: 49.9 },
    });
    expect(created.response.status).toBe(201);
    expect(created.data).toEqual(example('/api/v1/products', 'post', '201'));

    const read = await client.GET('/api/v1/products/{productId}', {
      params: { path: { productId: created.data.data.product.id } },
    });
    expect(read.data).toEqual(example('/api/v1/products/{productId}', 'get', '200'));

    const listed = [];
    for await (const product of client.listAll('/api/v1/products')) listed.push(product);
    const page = example('/api/v1/products', 'get', '200') as { data: { products: unknown[] } };
    expect(listed).toEqual(page.data.products);
    expect(listed.length).toBeGreaterThan(0);
  });

  it("gives the mock's documented errors as StorefrontApiError: 404, and 429 with retryAfter", async () => {
    const client = createStorefrontClient({ ...mock.partner, retry: { maxMs: 1000 } });
    const missing = await rejection(
      client.GET('/api/v1/products/{productId}', {
        params: { path: { productId: '3fa85f64-5717-4562-b3fc-2c963f66afa6' } },
        headers: { Prefer: 'code=404' },
      }),
    );
    expect(missing).toMatchObject({ status: 404, code: 'RESOURCE_NOT_FOUND', details: [] });
    // The example asks for 30 s, more than maxMs: the client does not sleep, the caller decides.
    const limited = await rejection(client.GET('/api/v1/products', { headers: { Prefer: 'code=429' } }));
    expect(limited).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfter: 30, details: [] });
    expect(limited.message).toBe((example('/api/v1/products', 'get', '429') as { message: string }).message);
  });

  it('verifies a delivery signed with the standardwebhooks library into a typed event', () => {
    const secret = newWebhookSecret();
    const { product } = (example('/api/v1/products', 'post', '201') as components['schemas']['ProductResponse']).data;
    const event: WebhookEvent<'PRODUCT_CREATED'> = {
      id: 'msg_2p8QjW5rT7xYc4Kd9LmN3vBz',
      type: 'PRODUCT_CREATED',
      createdAt: '2026-11-22T12:00:00.000Z',
      storeId: mock.partner.storeId,
      data: { product },
    };
    const body = JSON.stringify(event);
    const headers = new Headers({
      'webhook-id': event.id,
      'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
    });
    headers.set('webhook-signature', new Webhook(secret).sign(event.id, new Date(), body));
    expect(verifyWebhook(body, headers, secret)).toEqual(event);
    expect(() => verifyWebhook(body.replace('PRODUCT_CREATED', 'PRODUCT_DELETED'), headers, secret)).toThrow(
      WebhookVerificationError,
    );
  });
});
