// The checks derived from the contract for every operation: nothing here names an operation, so a new one in
// openapi.yaml is covered as it is.
import { randomUUID } from 'node:crypto';
import { errorCode, errorDetails, namesField, responseProblems } from './checks.ts';
import type { Json, Operation } from './contract.ts';
import type { Call, Exchange } from './http.ts';
import { Failure, type Session, Skip } from './session.ts';
import { bodyCases, type InputCase, minimalBody, parameterCases, setPath, uniquify } from './values.ts';

export interface Want {
  status?: number | number[];
  /** Any 2xx. */
  success?: boolean;
  /** Any status but this one (a value just inside a bound must not be refused as invalid). */
  not?: number;
  codes?: string[];
  field?: { location: string; path: string; parentOk?: boolean };
}

/** Sends a request, checks the response against the contract, then against what the rule wants. */
export async function expectResponse(
  s: Session,
  op: Operation,
  rule: string,
  call: Omit<Call, 'method' | 'path'>,
  want: Want,
): Promise<Exchange> {
  const wanted = want.status === undefined ? [] : Array.isArray(want.status) ? want.status : [want.status];
  const exchange = await s.http.call({ method: op.method, path: op.path, ...call, accept429: wanted.includes(429) });
  return assertExchange(s, op, rule, exchange, want);
}

/** Checks a response received against the contract, then against what the rule wants. */
export function assertExchange(s: Session, op: Operation, rule: string, exchange: Exchange, want: Want): Exchange {
  const { status } = exchange.response;
  const fail = (why: string): never => {
    throw new Failure(`${op.operationId} — ${rule}: ${why}`, exchange);
  };
  const problems = responseProblems(s.contract, op, exchange);
  if (problems.length === 0) s.covered.add(`${op.operationId} ${status}`);
  s.exercised.add(op.operationId);
  const wanted = want.status === undefined ? [] : Array.isArray(want.status) ? want.status : [want.status];
  if (wanted.length > 0 && !wanted.includes(status))
    fail(`expected ${wanted.join(' or ')}, got ${status}${problems.length ? `; ${problems.join('; ')}` : ''}`);
  if (want.success && (status < 200 || status > 299)) fail(`expected a 2xx response, got ${status}`);
  if (want.not !== undefined && status === want.not) {
    fail(`expected the value to be accepted (not ${want.not}), got ${status} ${errorCode(exchange) ?? ''}`);
  }
  if (problems.length > 0) fail(`the response breaks the contract: ${problems.join('; ')}`);
  if (want.codes && want.codes.length > 0) {
    const code = errorCode(exchange);
    if (!code || !want.codes.includes(code))
      fail(`expected error code ${want.codes.join(' or ')}, got ${code ?? 'none'}`);
  }
  if (want.field && s.has('details')) {
    const { location, path, parentOk } = want.field;
    if (!namesField(errorDetails(exchange), location, path, parentOk)) {
      fail(`expected error.details to name ${location} "${path}", got ${JSON.stringify(errorDetails(exchange))}`);
    }
  }
  return exchange;
}

const codesOf = (op: Operation, status: number, fallback: string[]) => {
  const codes = op.responses.get(String(status))?.exampleCodes ?? [];
  return codes.length > 0 ? codes : fallback;
};

const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJjb25mb3JtYW5jZSIsImlhdCI6MTcwMDAwMDAwMH0.c2lnbmF0dXJlLW5vdC12YWxpZA';

/** Every contract-derived check of one operation. */
export async function checkOperation(s: Session, op: Operation): Promise<void> {
  const id = op.operationId;
  const base = () => s.validRequest(op);
  const hasStoreHeader = op.parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === 'x-store-id');
  const unauthorizedCodes = codesOf(op, 401, ['AUTH_API_KEY_REQUIRED']);
  const without = (headers: Record<string, string>, ...names: string[]) =>
    Object.fromEntries(Object.entries(headers).filter(([k]) => !names.includes(k)));

  // (1) no credentials → 401
  await s.check(id, 'auth: no credentials → 401', async () => {
    const request = await base();
    const headers = without(request.headers, 'authorization', 'x-api-key');
    await expectResponse(
      s,
      op,
      'auth: no credentials → 401',
      { ...request, headers },
      { status: 401, codes: unauthorizedCodes },
    );
  });

  // (2) credentials of the wrong form → 401
  const wrongCredentials: [string, (h: Record<string, string>) => Record<string, string>][] =
    op.scheme === 'ApiKeyAuth'
      ? [
          ['malformed key', (h) => ({ ...h, authorization: 'Bearer sf_live_not-a-real-key' })],
          ['a JWT', (h) => ({ ...h, authorization: `Bearer ${JWT}` })],
          [
            'x-api-key header only',
            (h) => ({ ...without(h, 'authorization'), 'x-api-key': (h.authorization ?? '').replace(/^Bearer /, '') }),
          ],
          ['unknown key', (h) => ({ ...h, authorization: `Bearer sf_live_${'Z'.repeat(43)}` })],
        ]
      : op.scheme === 'CheckoutApiKey'
        ? [
            [
              'a v1 Bearer key instead of x-api-key',
              (h) => ({ ...without(h, 'x-api-key'), authorization: `Bearer sf_live_${'Z'.repeat(43)}` }),
            ],
            ['unknown checkout key', (h) => ({ ...h, 'x-api-key': `sf_checkout_${'Z'.repeat(43)}` })],
          ]
        : [['wrong admin token', (h) => ({ ...h, authorization: 'Bearer wrong-admin-token-0000' })]];
  for (const [name, change] of wrongCredentials) {
    const rule = `auth: ${name} → 401`;
    await s.check(id, rule, async () => {
      if (!s.has('auth')) throw new Skip('the target does not check credentials (profile without auth)');
      const request = await base();
      await expectResponse(
        s,
        op,
        rule,
        { ...request, headers: change(request.headers) },
        { status: 401, codes: unauthorizedCodes },
      );
    });
  }

  if (hasStoreHeader) {
    // (3) X-Store-Id not a uuid → 400
    await s.check(id, 'store-id: not a uuid → 400', async () => {
      const request = await base();
      await expectResponse(
        s,
        op,
        'store-id: not a uuid → 400',
        { ...request, headers: { ...request.headers, 'x-store-id': 'not-a-uuid' } },
        {
          status: 400,
          codes: ['VALIDATION_ERROR'],
          field: { location: 'header', path: 'x-store-id' },
        },
      );
    });
    // a store the key does not have → 403
    await s.check(id, 'store-id: store not authorized → 403', async () => {
      if (!s.has('auth')) throw new Skip('the target does not check store access');
      const request = await base();
      await expectResponse(
        s,
        op,
        'store-id: store not authorized → 403',
        { ...request, headers: { ...request.headers, 'x-store-id': randomUUID() } },
        {
          status: 403,
          codes: ['AUTH_STORE_ACCESS_DENIED'],
        },
      );
    });
  }

  // a key without the operation's scope → 403
  if (op.scopes.length > 0 && op.responses.has('403')) {
    await s.check(id, 'scope: key without the scope → 403', async () => {
      if (!s.has('admin')) throw new Skip('needs the admin API to issue a key with other scopes');
      const all = new Set(s.contract.operations.flatMap((o) => o.scopes));
      for (const scope of op.scopes) all.delete(scope);
      const key = await s.createKey([s.storeId], [...all]);
      const request = await base();
      await expectResponse(
        s,
        op,
        'scope: key without the scope → 403',
        { ...request, headers: { ...request.headers, authorization: `Bearer ${key}` } },
        {
          status: 403,
          codes: ['AUTH_SCOPE_DENIED'],
        },
      );
    });
  }

  // (6) a valid request → a documented 2xx
  await s.check(id, 'valid request → 2xx', async () => {
    let request = await s.validRequest(op, { fresh: true });
    if (s.has('state')) {
      // an optional field of the example naming a record by code (not by id) cannot point at the run's records
      const probe = await s.http.call({ method: op.method, path: op.path, ...request });
      const optional = errorDetails(probe).filter((d) => d.location === 'body' && !isRequired(s, op, d.path));
      if (probe.response.status === 422 && op.responses.has('422') && optional.length > 0) {
        s.dropped.set(
          op.operationId,
          optional.map((d) => d.path),
        );
        s.results.push({
          operationId: id,
          rule: 'valid request: example fields',
          outcome: 'skip',
          message: `the example's ${optional.map((d) => d.path).join(', ')} refer to records the suite cannot create by id; sent without them`,
        });
        request = await s.validRequest(op, { fresh: true });
      } else {
        assertExchange(s, op, 'valid request → 2xx', await s.freeEnumValue(op, request, probe), { success: true });
        return;
      }
    }
    await expectResponse(s, op, 'valid request → 2xx', request, { success: true });
  });

  // (4) invalid inputs, one constraint at a time, and the value just inside
  await inputChecks(s, op);

  // (5) unknown ids → 404
  const pathNames = op.parameters.filter((p) => p.in === 'path').map((p) => p.name);
  if (pathNames.length > 0 && op.responses.has('404')) {
    for (const name of pathNames) {
      const rule = `unknown ${name} → 404`;
      await s.check(id, rule, async () => {
        if (!s.has('state')) throw new Skip('needs state (a stateless target answers any id)');
        const request = await base();
        await expectResponse(
          s,
          op,
          rule,
          { ...request, pathParams: { ...request.pathParams, [name]: randomUUID() } },
          {
            status: 404,
            codes: codesOf(op, 404, ['RESOURCE_NOT_FOUND']),
          },
        );
      });
    }
  }

  // 409 on a create that repeats a unique value; 422 on a reference to a record that does not exist
  const conflict = op.responses.get('409');
  if (conflict?.exampleCodes.includes('DUPLICATE_ENTRY') && op.requestBody) {
    const rule = 'conflict: the same unique values twice → 409';
    await s.check(id, rule, async () => {
      if (!s.has('state')) throw new Skip('needs state');
      const request = await s.validRequest(op, { fresh: true });
      if (op.method === 'post') {
        // the first may already collide (one record per value in a store): then the second must too
        await expectResponse(s, op, `${rule} (first)`, request, { status: [201, 200, 409] });
        await expectResponse(s, op, rule, request, { status: 409, codes: conflict.exampleCodes });
      } else {
        // an update taking another record's unique values: the values of a fresh record's create body
        const kind = [...s.kinds.entries()].find(
          ([, creator]) => creator.path === op.path.replace(/\/\{[^}]+\}$/, ''),
        )?.[0];
        const creator = kind ? s.kinds.get(kind) : undefined;
        if (!creator) throw new Skip('no create operation for this record kind');
        const other = await s.validRequest(creator, { minimal: true });
        const first = await s.http.call({ method: creator.method, path: creator.path, ...other });
        const created = await s.freeEnumValue(creator, other, first);
        if (created.response.status !== 201)
          throw new Failure(`set-up: ${creator.operationId} did not answer 201`, created);
        other.body = JSON.parse(created.request.body ?? '{}') as Json;
        const props = Object.keys(
          (s.contract.deref(op.requestBody?.schema as Json) as { properties?: object }).properties ?? {},
        );
        const body = Object.fromEntries(
          Object.entries(other.body as object).filter(
            ([k]) => props.includes(k) && typeof (other.body as Record<string, Json>)[k] !== 'object',
          ),
        );
        await expectResponse(s, op, rule, { ...request, body }, { status: 409, codes: conflict.exampleCodes });
      }
    });
  }
  const unprocessable = op.responses.get('422');
  if (unprocessable?.exampleCodes.includes('REFERENCE_NOT_FOUND') && op.requestBody) {
    await s.check(id, 'reference: unknown id in the body → 422', async () => {
      if (!s.has('state')) throw new Skip('needs state');
      const request = await s.validRequest(op, { fresh: true });
      let body = request.body as Json;
      let field = s.referenceFields(body)[0];
      if (!field && op.method === 'patch') {
        // an update whose example changes no reference: one of the create example's, if the update accepts it
        const creator = [...s.kinds.values()].find((c) => c.path === op.path.replace(/\/\{[^}]+\}$/, ''));
        const props = Object.keys(
          (s.contract.deref(op.requestBody?.schema as Json) as { properties?: object }).properties ?? {},
        );
        const example = creator?.requestBody?.example;
        field =
          example === undefined
            ? undefined
            : s.referenceFields(example).find((f) => props.includes(f.split('.')[0] as string));
        if (field && example !== null && typeof example === 'object' && !Array.isArray(example)) {
          const top = field.split('.')[0] as string;
          body = {
            ...(body as object),
            [top]: await s.substitute((example as Record<string, Json>)[top] as Json, top),
          } as Json;
        }
      }
      if (!field) throw new Skip('the request example has no reference field to replace');
      body = setPath(body, field, randomUUID());
      await expectResponse(
        s,
        op,
        'reference: unknown id in the body → 422',
        { ...request, body },
        { status: 422, codes: unprocessable.exampleCodes },
      );
    });
  }

  // every other documented response, as a shape: only where the target answers on request (Prism's Prefer)
  if (s.has('preferCode')) {
    for (const status of op.responses.keys()) {
      if (!/^\d{3}$/.test(status) || s.covered.has(`${id} ${status}`)) continue;
      const rule = `shape: documented ${status} (Prefer: code=${status})`;
      await s.check(id, rule, async () => {
        const request = await base();
        await expectResponse(
          s,
          op,
          rule,
          { ...request, headers: { ...request.headers, prefer: `code=${status}` } },
          { status: Number(status) },
        );
      });
    }
  }
}

function fieldSchema(s: Session, op: Operation, field: string): Record<string, Json> | undefined {
  let at = s.contract.deref(op.requestBody?.schema as Json) as Json | undefined;
  for (const part of field.split('.')) {
    if (at === null || typeof at !== 'object' || Array.isArray(at)) return undefined;
    const props = s.contract.deref((at as Record<string, Json>).properties) as Record<string, Json> | undefined;
    at = /^\d+$/.test(part) ? s.contract.deref((at as Record<string, Json>).items) : s.contract.deref(props?.[part]);
  }
  return at !== null && typeof at === 'object' && !Array.isArray(at) ? (at as Record<string, Json>) : undefined;
}

function crossFieldHint(s: Session, op: Operation, field: string): boolean {
  const description = String(fieldSchema(s, op, field)?.description ?? '');
  const parts = field.split('.');
  const parent =
    parts.length > 1
      ? fieldSchema(s, op, parts.slice(0, -1).join('.'))
      : (s.contract.deref(op.requestBody?.schema as Json) as Record<string, Json>);
  const name = parts.at(-1) as string;
  return /`[A-Za-z_]+`|\b400\b/.test(description) || String(parent?.description ?? '').includes(name);
}

function isRequired(s: Session, op: Operation, field: string): boolean {
  const parts = field.split('.');
  const parent =
    parts.length > 1
      ? fieldSchema(s, op, parts.slice(0, -1).join('.'))
      : (s.contract.deref(op.requestBody?.schema as Json) as Record<string, Json>);
  return Array.isArray(parent?.required) && parent.required.includes(parts.at(-1) as string);
}

function hasPath(value: Json, parts: string[]): boolean {
  let at: Json | undefined = value;
  for (const part of parts) {
    if (Array.isArray(at)) at = at[Number(part)];
    else if (at !== null && typeof at === 'object') at = (at as Record<string, Json>)[part];
    else return false;
    if (at === undefined) return false;
  }
  return true;
}

async function inputChecks(s: Session, op: Operation): Promise<void> {
  const cases: InputCase[] = [];
  for (const p of op.parameters) {
    if (p.in === 'header' && p.name.toLowerCase() === 'x-store-id') continue;
    if (p.in === 'path' && !s.has('state')) continue;
    cases.push(...parameterCases(s.contract, p.schema, p.name, p.in, p.required));
  }
  let minimalBase: Json | undefined;
  if (op.requestBody?.example !== undefined) {
    cases.push(...bodyCases(s.contract, op.requestBody.schema as Json, op.requestBody.example));
    const reduced = minimalBody(s.contract, op.requestBody.schema as Json, op.requestBody.example);
    minimalBase = s.contract.validates(op.requestBody.schema, reduced) ? reduced : undefined;
  }
  for (const c of cases) {
    const rule = `input: ${c.location} ${c.field || '(body)'} ${c.rule} ${c.expect === 'invalid' ? '→ 400' : 'inside → accepted'}${c.value !== undefined && c.rule !== 'required' && JSON.stringify(c.value).length <= 40 ? ` (${JSON.stringify(c.value)})` : ''}`;
    await s.check(op.operationId, rule, async () => {
      if (c.location === 'query' && c.value === '' && !s.has('emptyQuery')) {
        throw new Skip('the target treats an empty query value as absent (Prism does)');
      }
      const request = await s.validRequest(op, { fresh: c.expect === 'valid' });
      const call: Omit<Call, 'method' | 'path'> = { ...request, query: {} };
      if (c.location === 'body') {
        let body = request.body as Json;
        const parent = c.field.split('.').slice(0, -1);
        if (
          c.fromMinimal &&
          c.expect === 'valid' &&
          minimalBase !== undefined &&
          op.requestBody &&
          hasPath(minimalBase, parent)
        ) {
          body = uniquify(s.contract, op.requestBody.schema as Json, await s.substitute(minimalBase));
        }
        call.body = setPath(body, c.field, c.value);
        if (c.expect === 'valid' && op.requestBody && !s.contract.validates(op.requestBody.schema, call.body)) {
          throw new Skip(
            'the value is inside its own bounds but the whole body breaks another rule of the schema (not certain)',
          );
        }
      } else if (c.location === 'query') {
        if (c.value !== undefined) call.query = { [c.field]: String(c.value) };
      } else if (c.location === 'path') {
        call.pathParams = { ...request.pathParams, [c.field]: String(c.value) };
      } else if (c.value !== undefined) {
        call.headers = { ...request.headers, [c.field.toLowerCase()]: String(c.value) };
      }
      if (c.expect === 'invalid') {
        await expectResponse(s, op, rule, call, {
          status: 400,
          codes: ['VALIDATION_ERROR'],
          field: { location: c.location, path: c.field, ...(c.parentOk ? { parentOk: true } : {}) },
        });
      } else {
        const exchange = await s.http.call({ method: op.method, path: op.path, ...call });
        const status = exchange.response.status;
        const details = errorDetails(exchange);
        if (status === 400 && details.length > 0 && !namesField(details, c.location, c.field)) {
          throw new Skip(
            `a rule beyond the schema refused the body (${details.map((d) => d.path).join(', ')}), not the value under test`,
          );
        }
        if (status === 400 && /^(minimum|maximum|exclusive)/.test(c.rule)) {
          throw new Skip(
            'a number just inside its bounds was refused: a rule between fields may narrow the bound (not certain)',
          );
        }
        if (status === 400 && c.rule === 'maxItems' && details.every((d) => d.path.startsWith(`${c.field}.`))) {
          throw new Skip('the repeated items break a rule between items, not the array size (not certain)');
        }
        const creator = [...s.kinds.values()].find((k) => k.path === op.path.replace(/\/\{[^}]+\}$/, ''));
        if (
          status === 400 &&
          (crossFieldHint(s, op, c.field) || (op.method === 'patch' && creator && crossFieldHint(s, creator, c.field)))
        ) {
          throw new Skip('the field description names another rule (another field or a 400 of its own); not certain');
        }
        await expectResponse(s, op, rule, call, { not: 400 });
      }
    });
  }
}

/** 429 on every operation with a key whose window is used up; needs the target's limit. */
export async function checkRateLimit(s: Session, ops: Operation[]): Promise<void> {
  const max = s.options.rateLimitMax ?? 0;
  const v1 = ops.filter((op) => op.responses.has('429') && op.scheme !== 'AdminToken');
  for (const op of ops.filter((o) => o.responses.has('429') && o.scheme === 'AdminToken')) {
    s.results.push({
      operationId: op.operationId,
      rule: 'rate limit → 429',
      outcome: 'skip',
      message: 'the admin API is not rate limited by key on this target (nothing to exhaust)',
    });
  }
  if (!s.has('rateLimit')) {
    for (const op of v1)
      s.results.push({
        operationId: op.operationId,
        rule: 'rate limit → 429',
        outcome: 'skip',
        message:
          'the rate limit of the target is unknown (--rate-limit-max, --rate-limit-window) or there is no admin API',
      });
    return;
  }
  let key = '';
  let checkout = '';
  const burn = async () => {
    key = await s.createKey([s.storeId]);
    const list = v1.find((op) => op.scheme === 'ApiKeyAuth' && op.method === 'get' && !op.path.includes('{'));
    if (!list) throw new Skip('no list operation to use up the window with');
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let i = 0; i < Math.ceil(max / 8) + 1; i++) {
          await s.http.call({
            method: 'get',
            path: list.path,
            headers: { authorization: `Bearer ${key}`, 'x-store-id': s.storeId },
            accept429: true,
          });
        }
      }),
    );
  };
  const burnCheckout = async () => {
    const data = await s.adminCall('createCheckoutKey', { storeId: s.storeId }, undefined);
    checkout = String((data.checkoutKey as { key: string }).key);
    const read = v1.find((op) => op.scheme === 'CheckoutApiKey' && op.method === 'get');
    if (!read) return;
    for (let i = 0; i <= max; i++) {
      await s.http.call({
        method: 'get',
        path: read.path,
        pathParams: { paymentLinkId: randomUUID() },
        headers: { 'x-api-key': checkout },
        accept429: true,
      });
    }
  };
  await s.check('*', 'rate limit: use up a key', burn);
  if (v1.some((op) => op.scheme === 'CheckoutApiKey'))
    await s.check('*', 'rate limit: use up a checkout key', burnCheckout);
  for (const op of v1) {
    await s.check(op.operationId, 'rate limit → 429', async () => {
      const request = await s.validRequest(op);
      const headers = () =>
        op.scheme === 'CheckoutApiKey'
          ? { ...request.headers, 'x-api-key': checkout }
          : { ...request.headers, authorization: `Bearer ${key}` };
      const send = () =>
        s.http.call({ method: op.method, path: op.path, ...request, headers: headers(), accept429: true });
      let exchange = await send();
      if (exchange.response.status !== 429) {
        // a new window may have started during the run: use it up again once
        if (op.scheme === 'CheckoutApiKey') await burnCheckout();
        else await burn();
        exchange = await send();
      }
      assertExchange(s, op, 'rate limit → 429', exchange, { status: 429, codes: ['RATE_LIMITED'] });
    });
  }
}
