// The rate limit: found from the target's `RateLimit-Policy` header when not given, then 429 on every operation
// with a key whose window is used up.
import { randomUUID } from 'node:crypto';
import type { Operation } from './contract.ts';
import { assertExchange } from './expect.ts';
import { Skip } from './outcome.ts';
import type { Session } from './session.ts';

export interface RateLimit {
  max: number;
  windowSeconds: number;
}

/** `"default";q=600;w=60` (IETF RateLimit-Policy, structured) or the older `600;w=60`. */
export function parseRateLimitPolicy(header: string | undefined): RateLimit | undefined {
  if (!header) return undefined;
  const max = /(?:^|;)\s*q=(\d+)/.exec(header)?.[1] ?? /^\s*(\d+)\s*(?:;|$)/.exec(header)?.[1];
  const windowSeconds = /(?:^|;)\s*w=(\d+)/.exec(header)?.[1];
  return max && windowSeconds ? { max: Number(max), windowSeconds: Number(windowSeconds) } : undefined;
}

/** A v1 list operation (no path ids) to send plain requests to. */
const listOperation = (ops: Operation[]) =>
  ops.find((op) => op.scheme === 'ApiKeyAuth' && op.method === 'get' && !op.path.includes('{'));

/** Asks the target its limit: the `RateLimit-Policy` header of an ordinary request with the run's key. */
export async function discoverRateLimit(s: Session): Promise<RateLimit | undefined> {
  const list = listOperation(s.contract.operations);
  if (!list) return undefined;
  const exchange = await s.http.call({ method: 'get', path: list.path, headers: await s.authHeaders(list) });
  return parseRateLimitPolicy(exchange.response.headers['ratelimit-policy']);
}

const skipAll = (s: Session, ops: Operation[], message: string) => {
  for (const op of ops)
    s.results.push({ operationId: op.operationId, rule: 'rate limit → 429', outcome: 'skip', message });
};

/** Uses up the window of a new v1 key with plain list requests; returns the key. */
async function burnKey(s: Session, ops: Operation[]): Promise<string> {
  const max = s.options.rateLimitMax ?? 0;
  const key = await s.createKey([s.storeId]);
  const list = listOperation(ops);
  if (!list) throw new Skip('no list operation to use up the window with');
  const headers = { authorization: `Bearer ${key}`, 'x-store-id': s.storeId };
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let i = 0; i < Math.ceil(max / 8) + 1; i++) {
        await s.http.call({ method: 'get', path: list.path, headers, accept429: true });
      }
    }),
  );
  return key;
}

/** Uses up the window of a new checkout key; returns the key. */
async function burnCheckoutKey(s: Session, ops: Operation[]): Promise<string> {
  const data = await s.adminCall('createCheckoutKey', { storeId: s.storeId }, undefined);
  const checkout = String((data.checkoutKey as { key: string }).key);
  const read = ops.find((op) => op.scheme === 'CheckoutApiKey' && op.method === 'get');
  for (let i = 0; read && i <= (s.options.rateLimitMax ?? 0); i++) {
    await s.http.call({
      method: 'get',
      path: read.path,
      pathParams: { paymentLinkId: randomUUID() },
      headers: { 'x-api-key': checkout },
      accept429: true,
    });
  }
  return checkout;
}

/** 429 on every operation with a key whose window is used up; needs the target's limit. */
export async function checkRateLimit(s: Session, ops: Operation[]): Promise<void> {
  const limited = ops.filter((op) => op.responses.has('429'));
  const v1 = limited.filter((op) => op.scheme !== 'AdminToken');
  skipAll(
    s,
    limited.filter((op) => op.scheme === 'AdminToken'),
    'the admin API is not rate limited by key on this target (nothing to exhaust)',
  );
  if (!s.has('rateLimit')) {
    const why = s.has('admin')
      ? 'the rate limit of the target is unknown (no RateLimit-Policy header; give --rate-limit-max and --rate-limit-window)'
      : 'using up a window needs keys of its own: give --admin-token';
    return skipAll(s, v1, why);
  }
  const keys = { v1: '', checkout: '' };
  const burn = async (checkout: boolean) => {
    if (checkout) keys.checkout = await burnCheckoutKey(s, v1);
    else keys.v1 = await burnKey(s, v1);
  };
  await s.check('*', 'rate limit: use up a key', () => burn(false));
  if (v1.some((op) => op.scheme === 'CheckoutApiKey')) {
    await s.check('*', 'rate limit: use up a checkout key', () => burn(true));
  }
  for (const op of v1) {
    await s.check(op.operationId, 'rate limit → 429', async () => {
      const request = await s.validRequest(op);
      const send = () => {
        const credentials =
          op.scheme === 'CheckoutApiKey' ? { 'x-api-key': keys.checkout } : { authorization: `Bearer ${keys.v1}` };
        const headers = { ...request.headers, ...credentials };
        return s.http.call({ method: op.method, path: op.path, ...request, headers, accept429: true });
      };
      let exchange = await send();
      if (exchange.response.status !== 429) {
        // a new window may have started during the run: use it up again once
        await burn(op.scheme === 'CheckoutApiKey');
        exchange = await send();
      }
      assertExchange(s, op, 'rate limit → 429', exchange, { status: 429, codes: ['RATE_LIMITED'] });
    });
  }
}
