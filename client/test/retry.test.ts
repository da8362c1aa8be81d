// Which requests the client sends again, how often, and what the caller gets in the end, with a scripted fetch
// (each answer or network error in turn) so every case is exact.
import { describe, expect, it } from 'vitest';
import type { components } from '../../generated/openapi-wire.ts';
import { createStorefrontClient, StorefrontApiError } from '../src/index.ts';

type Step = number | 'network error' | 'key in use';

const partner = {
  baseUrl: 'http://storefront.test',
  apiKey: `sf_live_${'a'.repeat(43)}`,
  storeId: '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
};

const envelope = (status: number) => ({
  success: false,
  error: { message: 'Erro interno.', code: 'INTERNAL_ERROR' },
  meta: { timestamp: '2026-11-22T12:00:00.000Z', status },
});
const product = {
  success: true,
  data: { product: { id: '3fa85f64-5717-4562-b3fc-2c963f66afa6', name: 'Caneca' } },
};

/** Answers the steps in order (the last one repeats) and records each request as it was sent. */
function scripted(...steps: Step[]) {
  const sent: { method: string; headers: Headers; body: string }[] = [];
  const fetch = async (request: Request): Promise<Response> => {
    sent.push({ method: request.method, headers: request.headers, body: await request.text() });
    const step = steps[Math.min(sent.length, steps.length) - 1];
    if (step === 'network error' || step === undefined) throw new TypeError('fetch failed');
    if (step === 429) {
      const limited = { success: false, message: 'Muitas requisições.', error: 'RATE_LIMITED', retryAfter: 0 };
      return Response.json(limited, { status: 429, headers: { 'Retry-After': '0' } });
    }
    if (step === 204) return new Response(null, { status: 204 });
    if (step === 'key in use') {
      const inUse = { ...envelope(409), error: { message: 'Em processamento.', code: 'IDEMPOTENCY_KEY_IN_USE' } };
      return Response.json(inUse, { status: 409 });
    }
    return Response.json(step < 300 ? product : envelope(step), { status: step });
  };
  return { sent, fetch };
}

const clientWith = (fetch: (request: Request) => Promise<Response>, attempts = 4) =>
  createStorefrontClient({ ...partner, fetch, retry: { attempts, baseMs: 1, maxMs: 10 } });

async function outcome(promise: Promise<{ response: Response }>): Promise<number | string> {
  try {
    return (await promise).response.status;
  } catch (error) {
    return error instanceof StorefrontApiError ? `StorefrontApiError ${error.status}` : String(error);
  }
}

const body = { name: 'Caneca', type: 'DIGITAL', price: 10 } as const;
const webhook: components['schemas']['WebhookCreate'] = {
  name: 'ERP',
  url: 'https://erp.example.com/hook',
  events: ['ORDER_PAID'],
  active: true,
  retryAttempts: 3,
  timeout: 5000,
};
const productId = '3fa85f64-5717-4562-b3fc-2c963f66afa6';

describe('retries', () => {
  const cases: [
    string,
    {
      steps: Step[];
      call: (c: ReturnType<typeof clientWith>) => Promise<{ response: Response }>;
      want: { sends: number; outcome: number | string };
    },
  ][] = [
    [
      'a GET after 503, 503',
      { steps: [503, 503, 200], call: (c) => c.GET('/api/v1/products'), want: { sends: 3, outcome: 200 } },
    ],
    [
      'a GET after a network error',
      { steps: ['network error', 200], call: (c) => c.GET('/api/v1/products'), want: { sends: 2, outcome: 200 } },
    ],
    [
      'a DELETE after a 502',
      {
        steps: [502, 204],
        call: (c) => c.DELETE('/api/v1/products/{productId}', { params: { path: { productId } } }),
        want: { sends: 2, outcome: 204 },
      },
    ],
    [
      'an idempotent POST after a network error',
      {
        steps: ['network error', 201],
        call: (c) => c.POST('/api/v1/products', { body }),
        want: { sends: 2, outcome: 201 },
      },
    ],
    [
      'any request after a 429, a POST without key too',
      {
        steps: [429, 201],
        call: (c) => c.POST('/api/v1/webhooks', { body: webhook }),
        want: { sends: 2, outcome: 201 },
      },
    ],
    [
      'not a POST without key after a network error',
      {
        steps: ['network error', 201],
        call: (c) => c.POST('/api/v1/webhooks', { body: webhook }),
        want: { sends: 1, outcome: 'TypeError: fetch failed' },
      },
    ],
    [
      'not a POST without key after a 500',
      {
        steps: [500, 201],
        call: (c) => c.POST('/api/v1/webhooks', { body: webhook }),
        want: { sends: 1, outcome: 'StorefrontApiError 500' },
      },
    ],
    [
      'not a PATCH after a 503',
      {
        steps: [503, 200],
        call: (c) => c.PATCH('/api/v1/products/{productId}', { params: { path: { productId } }, body: { price: 12 } }),
        want: { sends: 1, outcome: 'StorefrontApiError 503' },
      },
    ],
    [
      'an idempotent POST answered 409 IDEMPOTENCY_KEY_IN_USE (its first send still running)',
      {
        steps: ['key in use', 'key in use', 201],
        call: (c) => c.POST('/api/v1/products', { body }),
        want: { sends: 3, outcome: 201 },
      },
    ],
    [
      'not a 409 for another reason',
      {
        steps: [409, 201],
        call: (c) => c.POST('/api/v1/products', { body }),
        want: { sends: 1, outcome: 'StorefrontApiError 409' },
      },
    ],
    [
      'not a 4xx other than 429',
      {
        steps: [404, 200],
        call: (c) => c.GET('/api/v1/products'),
        want: { sends: 1, outcome: 'StorefrontApiError 404' },
      },
    ],
    [
      'at most `attempts` sends, then the last answer',
      { steps: [503], call: (c) => c.GET('/api/v1/products'), want: { sends: 4, outcome: 'StorefrontApiError 503' } },
    ],
  ];
  it.each(cases)('%s', async (_name, { steps, call, want }) => {
    const target = scripted(...steps);
    expect(await outcome(call(clientWith(target.fetch)))).toBe(want.outcome);
    expect(target.sent).toHaveLength(want.sends);
  });

  it('sends the same Idempotency-Key and body on every retry of a create, a new key for the next create', async () => {
    const target = scripted('network error', 503, 201);
    const client = clientWith(target.fetch);
    await client.POST('/api/v1/products', { body });
    await client.POST('/api/v1/products', { body });
    const keys = target.sent.map((s) => s.headers.get('Idempotency-Key'));
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys.slice(0, 3)).toEqual([keys[0], keys[0], keys[0]]);
    expect(keys[3]).not.toBe(keys[0]);
    expect(new Set(target.sent.map((s) => s.body))).toEqual(new Set([JSON.stringify(body)]));
  });

  it('sends the key and the store on every request, and no Idempotency-Key where the contract has none', async () => {
    const target = scripted(201);
    await clientWith(target.fetch).POST('/api/v1/webhooks', { body: webhook });
    const [request] = target.sent;
    expect(request?.headers.get('Authorization')).toBe(`Bearer ${partner.apiKey}`);
    expect(request?.headers.get('X-Store-Id')).toBe(partner.storeId);
    expect(request?.headers.has('Idempotency-Key')).toBe(false);
  });

  it('keeps the default of a retry field given as undefined: 4 sends, not an endless loop', async () => {
    const target = scripted(503);
    const client = createStorefrontClient({
      ...partner,
      fetch: target.fetch,
      retry: { attempts: undefined, baseMs: 1, maxMs: 10 },
    });
    expect(await outcome(client.GET('/api/v1/products'))).toBe('StorefrontApiError 503');
    expect(target.sent).toHaveLength(4);
  });

  it('waits out a Retry-After as long as maxMs, its jitter kept within maxMs', async () => {
    let sends = 0;
    const fetch = async (): Promise<Response> => {
      sends += 1;
      if (sends > 1) return Response.json(product, { status: 200 });
      const limited = { success: false, message: 'Muitas requisições.', error: 'RATE_LIMITED', retryAfter: 1 };
      return Response.json(limited, { status: 429, headers: { 'Retry-After': '1' } });
    };
    const client = createStorefrontClient({ ...partner, fetch, retry: { attempts: 2, baseMs: 500, maxMs: 1000 } });
    expect(await outcome(client.GET('/api/v1/products'))).toBe(200);
    expect(sends).toBe(2);
  });

  it("gives the answer's X-Request-Id and headers with the error, the id to quote to support", async () => {
    const fetch = async (): Promise<Response> =>
      Response.json(envelope(404), { status: 404, headers: { 'X-Request-Id': 'req-123', RateLimit: 'r=9, t=60' } });
    const error = await clientWith(fetch)
      .GET('/api/v1/products')
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(StorefrontApiError);
    const { status, requestId, headers } = error as StorefrontApiError;
    expect({ status, requestId, rateLimit: headers.get('RateLimit') }).toEqual({
      status: 404,
      requestId: 'req-123',
      rateLimit: 'r=9, t=60',
    });
  });

  it('stops waiting when the caller aborts', async () => {
    const target = scripted(503);
    const client = createStorefrontClient({
      ...partner,
      fetch: target.fetch,
      retry: { baseMs: 60_000, maxMs: 60_000 },
    });
    const controller = new AbortController();
    const call = client.GET('/api/v1/products', { signal: controller.signal });
    controller.abort(new Error('gave up'));
    await expect(call).rejects.toThrow('gave up');
  });
});
