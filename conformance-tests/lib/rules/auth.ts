// Rules of access: credentials (none, of the wrong form, unknown), the store header, the key's scope.
import { randomUUID } from 'node:crypto';
import { codesOf, expectResponse } from '../expect.ts';
import { Skip } from '../outcome.ts';
import { family, type SingleRule } from '../rule.ts';

type Headers = Record<string, string>;

const without = (headers: Headers, ...names: string[]) =>
  Object.fromEntries(Object.entries(headers).filter(([k]) => !names.includes(k)));

const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJjb25mb3JtYW5jZSIsImlhdCI6MTcwMDAwMDAwMH0.c2lnbmF0dXJlLW5vdC12YWxpZA';

/**
 * Wrong credentials for each security scheme: a name, how they change valid headers, and whether only a target
 * that knows its keys can refuse them (`state`: of the right form, but no key of the target's), or any target that
 * checks credentials at all, the mock included, by their form (`form`).
 */
const WRONG_CREDENTIALS: Record<string, [string, (h: Headers) => Headers, 'form' | 'state'][]> = {
  ApiKeyAuth: [
    ['malformed key', (h) => ({ ...h, authorization: 'Bearer sf_live_not-a-real-key' }), 'form'],
    ['a JWT', (h) => ({ ...h, authorization: `Bearer ${JWT}` }), 'form'],
    [
      'x-api-key header only',
      (h) => ({ ...without(h, 'authorization'), 'x-api-key': (h.authorization ?? '').replace(/^Bearer /, '') }),
      'form',
    ],
    ['unknown key', (h) => ({ ...h, authorization: `Bearer sf_live_${'Z'.repeat(43)}` }), 'state'],
  ],
  CheckoutApiKey: [
    [
      'a v1 Bearer key instead of x-api-key',
      (h) => ({ ...without(h, 'x-api-key'), authorization: `Bearer sf_live_${'Z'.repeat(43)}` }),
      'form',
    ],
    ['unknown checkout key', (h) => ({ ...h, 'x-api-key': `sf_checkout_${'Z'.repeat(43)}` }), 'state'],
  ],
  AdminToken: [['wrong admin token', (h) => ({ ...h, authorization: 'Bearer wrong-admin-token-0000' }), 'state']],
};

const hasStoreHeader = (op: { parameters: { in: string; name: string }[] }) =>
  op.parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === 'x-store-id');

export const noCredentials: SingleRule = {
  rule: 'auth: no credentials → 401',
  applies: () => true,
  async run(s, op) {
    const request = await s.validRequest(op);
    const headers = without(request.headers, 'authorization', 'x-api-key');
    await expectResponse(
      s,
      op,
      'auth: no credentials → 401',
      { ...request, headers },
      { status: 401, codes: codesOf(op, 401, ['AUTH_API_KEY_REQUIRED']) },
    );
  },
};

export const wrongCredentials = family<[string, (h: Headers) => Headers, 'form' | 'state']>({
  rule: ([name]) => `auth: ${name} → 401`,
  applies: () => true,
  variants: (_s, op) => WRONG_CREDENTIALS[op.scheme ?? ''] ?? WRONG_CREDENTIALS.AdminToken ?? [],
  async run(s, op, [, change, judged], rule) {
    if (judged === 'state' && !s.has('auth')) {
      throw new Skip(
        'credentials of the right form that no key of the target is: only a target with keys refuses them',
      );
    }
    const request = await s.validRequest(op);
    await expectResponse(
      s,
      op,
      rule,
      { ...request, headers: change(request.headers) },
      { status: 401, codes: codesOf(op, 401, ['AUTH_API_KEY_REQUIRED']) },
    );
  },
});

export const storeIdNotUuid: SingleRule = {
  rule: 'store-id: not a uuid → 400',
  applies: (_s, op) => hasStoreHeader(op),
  async run(s, op) {
    const request = await s.validRequest(op);
    await expectResponse(
      s,
      op,
      'store-id: not a uuid → 400',
      { ...request, headers: { ...request.headers, 'x-store-id': 'not-a-uuid' } },
      { status: 400, codes: ['VALIDATION_ERROR'], field: { location: 'header', path: 'x-store-id' } },
    );
  },
};

export const storeNotAuthorized: SingleRule = {
  rule: 'store-id: store not authorized → 403',
  applies: (_s, op) => hasStoreHeader(op),
  async run(s, op) {
    if (!s.has('auth')) throw new Skip('the target does not check store access');
    const request = await s.validRequest(op);
    await expectResponse(
      s,
      op,
      'store-id: store not authorized → 403',
      { ...request, headers: { ...request.headers, 'x-store-id': randomUUID() } },
      { status: 403, codes: ['AUTH_STORE_ACCESS_DENIED'] },
    );
  },
};

export const scopeDenied: SingleRule = {
  rule: 'scope: key without the scope → 403',
  applies: (_s, op) => op.scopes.length > 0 && op.responses.has('403'),
  async run(s, op) {
    if (!s.has('admin')) throw new Skip('needs the admin API to issue a key with other scopes');
    const all = new Set(s.contract.operations.flatMap((o) => o.scopes));
    for (const scope of op.scopes) all.delete(scope);
    const key = await s.createKey([s.storeId], [...all]);
    const request = await s.validRequest(op);
    await expectResponse(
      s,
      op,
      'scope: key without the scope → 403',
      { ...request, headers: { ...request.headers, authorization: `Bearer ${key}` } },
      { status: 403, codes: ['AUTH_SCOPE_DENIED'] },
    );
  },
};
