// The client against the reference server, started as `npm start` starts it: typed calls, the store header set
// once, every page of a list, the one error type, 429s waited out, lost answers retried under the same
// Idempotency-Key, and webhook deliveries verified.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createStorefrontClient,
  newWebhookSecret,
  StorefrontApiError,
  verifyWebhook,
  WebhookVerificationError,
} from '../src/index.ts';
import { type Partner, type ServerTarget, STARTUP_MS, startServerProcess, webhookReceiver } from './targets.ts';

const camiseta = { name: 'Camiseta Básica', type: 'DIGITAL', price: 49.9 } as const;

/** A fetch that records what was sent and what came back. */
function recordingFetch(send: (request: Request) => Promise<Response> = (request) => fetch(request)) {
  const sent: { method: string; path: string; idempotencyKey: string | null; status: number | 'network error' }[] = [];
  const wrapped = async (request: Request) => {
    const entry = {
      method: request.method,
      path: new URL(request.url).pathname,
      idempotencyKey: request.headers.get('Idempotency-Key'),
      status: 'network error' as number | 'network error',
    };
    sent.push(entry);
    const response = await send(request);
    entry.status = response.status;
    return response;
  };
  return { sent, fetch: wrapped };
}

async function rejection(promise: Promise<unknown>): Promise<StorefrontApiError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof StorefrontApiError)) throw new Error(`expected a StorefrontApiError, got ${String(error)}`);
  return error;
}

describe('the client against the reference server', () => {
  let server: ServerTarget;
  let partner: Partner;

  beforeAll(async () => {
    server = await startServerProcess();
  }, STARTUP_MS);
  afterAll(() => server.stop(), STARTUP_MS);

  beforeAll(async () => {
    partner = await server.newPartner();
  }, STARTUP_MS);

  it('creates, reads back and lists every product through the iterator, never passing X-Store-Id per call', async () => {
    const client = createStorefrontClient({ ...partner });
    const created = [];
    for (let i = 1; i <= 5; i++) {
      const { data, response } = await client.POST('/api/v1/products', {
        body: { ...camiseta, name: `Camiseta ${i}` },
      });
      expect(response.status).toBe(201);
      expect(data).toEqual({
        success: true,
        data: { product: expect.objectContaining({ storeId: partner.storeId, name: `Camiseta ${i}`, price: 49.9 }) },
      });
      created.push(data.data.product);
    }
    const first = created[0];
    if (!first) throw new Error('nothing created');
    const { data: read } = await client.GET('/api/v1/products/{productId}', {
      params: { path: { productId: first.id } },
    });
    expect(read).toEqual({ success: true, data: { product: { ...first, variants: [] } } });

    const listed = [];
    for await (const product of client.listAll('/api/v1/products', { params: { query: { limit: 2 } } })) {
      listed.push(product);
    }
    expect(listed.map((p) => p.id).sort()).toEqual(created.map((p) => p.id).sort());
    expect(listed).toEqual(expect.arrayContaining(created));
  });

  it('turns every failure into one StorefrontApiError with status, code, message and details', async () => {
    const client = createStorefrontClient({ ...partner });
    const missing = await rejection(
      client.GET('/api/v1/products/{productId}', {
        params: { path: { productId: '00000000-0000-4000-8000-000000000000' } },
      }),
    );
    expect(missing).toMatchObject({ status: 404, code: 'RESOURCE_NOT_FOUND', details: [], retryAfter: null });
    expect(missing.message).not.toBe('');

    const invalid = await rejection(client.POST('/api/v1/products', { body: { ...camiseta, price: 0 } }));
    expect(invalid).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
    expect(invalid.details).toContainEqual(expect.objectContaining({ location: 'body', path: 'price' }));

    const stranger = createStorefrontClient({ ...partner, apiKey: `sf_live_${'x'.repeat(43)}` });
    expect(await rejection(stranger.GET('/api/v1/products'))).toMatchObject({
      status: 401,
      code: 'AUTH_API_KEY_REQUIRED',
    });
  });

  it('sends the same Idempotency-Key again when the answer to a create is lost: one product, replayed', async () => {
    let lose = true;
    const recorder = recordingFetch(async (request) => {
      const response = await fetch(request);
      if (lose && request.method === 'POST') {
        lose = false;
        await response.body?.cancel();
        throw new TypeError('fetch failed: the connection was reset'); // the server acted; the answer never came
      }
      return response;
    });
    const client = createStorefrontClient({ ...partner, fetch: recorder.fetch, retry: { baseMs: 1 } });
    const fresh = await server.newPartner();
    const isolated = createStorefrontClient({ ...fresh, fetch: recorder.fetch, retry: { baseMs: 1 } });

    const { data, response } = await isolated.POST('/api/v1/products', { body: camiseta });
    expect(response.headers.get('Idempotent-Replayed')).toBe('true');
    const posts = recorder.sent.filter((s) => s.method === 'POST');
    expect(posts).toHaveLength(2);
    expect(posts[0]?.idempotencyKey).toMatch(/^[A-Za-z0-9._-]{1,128}$/);
    expect(posts[1]?.idempotencyKey).toBe(posts[0]?.idempotencyKey);
    const all = [];
    for await (const product of isolated.listAll('/api/v1/products')) all.push(product);
    expect(all).toEqual([data.data.product]);

    // A key given by the caller is kept as it is.
    await client.POST('/api/v1/products', {
      params: { header: { 'Idempotency-Key': 'pedido-4711' } },
      body: { ...camiseta, name: 'Caneca' },
    });
    expect(recorder.sent.at(-1)?.idempotencyKey).toBe('pedido-4711');
  });

  it('verifies a real delivery with verifyWebhook and returns the typed event; a tampered one is refused', async () => {
    const receiver = await webhookReceiver();
    try {
      const client = createStorefrontClient({ ...(await server.newPartner()) });
      const secret = newWebhookSecret();
      await client.POST('/api/v1/webhooks', {
        // active, retryAttempts and timeout have defaults, but generated/ types them as required in bodies too.
        body: {
          name: 'Catálogo',
          url: receiver.url,
          events: ['PRODUCT_CREATED'],
          secret,
          active: true,
          retryAttempts: 0,
          timeout: 5000,
        },
      });
      const { data } = await client.POST('/api/v1/products', { body: camiseta });
      await vi.waitFor(() => expect(receiver.deliveries).toHaveLength(1), { timeout: 10_000, interval: 50 });
      const [delivery] = receiver.deliveries;
      if (!delivery) throw new Error('no delivery');

      const event = verifyWebhook(delivery.body, delivery.headers, secret);
      expect(event).toEqual({
        id: delivery.headers['webhook-id'],
        type: 'PRODUCT_CREATED',
        createdAt: expect.any(String),
        storeId: data.data.product.storeId,
        data: { product: data.data.product },
      });
      const tampered = delivery.body.replace('49.9', '0.01');
      expect(() => verifyWebhook(tampered, delivery.headers, secret)).toThrow(WebhookVerificationError);
      expect(() => verifyWebhook(delivery.body, delivery.headers, newWebhookSecret())).toThrow(
        WebhookVerificationError,
      );
    } finally {
      await receiver.close();
    }
  });
});

describe('the client against a server with a tiny rate limit', () => {
  let server: ServerTarget;

  beforeAll(async () => {
    server = await startServerProcess({ RATE_LIMIT_MAX: '2', RATE_LIMIT_WINDOW_SECONDS: '2' });
  }, STARTUP_MS);
  afterAll(() => server.stop(), STARTUP_MS);

  it('waits out a 429 for as long as Retry-After says, then succeeds', async () => {
    const partner = await server.newPartner();
    const headers = { Authorization: `Bearer ${partner.apiKey}`, 'X-Store-Id': partner.storeId };
    const recorder = recordingFetch();
    // One retry only: had it gone before Retry-After, it would land in the full window and fail again.
    const client = createStorefrontClient({ ...partner, fetch: recorder.fetch, retry: { attempts: 2 } });
    // Fill the window, then call at once; a window that turns over in between gives no 429, so try again.
    for (let round = 0; round < 3 && !recorder.sent.some((s) => s.status === 429); round++) {
      while ((await fetch(`${partner.baseUrl}/api/v1/products`, { headers })).status !== 429);
      recorder.sent.length = 0;
      const { data } = await client.GET('/api/v1/products');
      expect(data).toEqual({
        success: true,
        data: { products: [], pagination: expect.objectContaining({ total: 0 }) },
      });
    }
    expect(recorder.sent.map((s) => s.status)).toEqual([429, 200]);
  });

  it('gives the 429 to the caller as a StorefrontApiError when retries are spent', async () => {
    const partner = await server.newPartner();
    const headers = { Authorization: `Bearer ${partner.apiKey}`, 'X-Store-Id': partner.storeId };
    const client = createStorefrontClient({ ...partner, retry: { attempts: 1 } });
    let error: StorefrontApiError | undefined;
    for (let round = 0; round < 3 && !error; round++) {
      while ((await fetch(`${partner.baseUrl}/api/v1/products`, { headers })).status !== 429);
      error = await client.GET('/api/v1/products').then(
        () => undefined,
        (reason: unknown) => (reason instanceof StorefrontApiError ? reason : undefined),
      );
    }
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED', details: [] });
    expect(error?.retryAfter).toBeGreaterThanOrEqual(1);
    expect(error?.retryAfter).toBeLessThanOrEqual(2);
  });
});
