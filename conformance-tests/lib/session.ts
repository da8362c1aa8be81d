// One run against one target: its options and capabilities, the keys it acts with, the records it created,
// and the results. Records are created through the API itself (and the admin API where the contract says a
// resource enters from the panel or the checkout), found generically: the creator of a kind `product` is the
// operation answering 201 with `data.product`.
import { randomUUID } from 'node:crypto';
import { errorDetails } from './checks.ts';
import type { Contract, Json, JsonObject, Operation } from './contract.ts';
import { isObject } from './contract.ts';
import { describeExchange, type Exchange, Http } from './http.ts';
import { creators, deleters, kindOf } from './kinds.ts';
import { type Capability, type Options, PROFILE_CAPABILITIES } from './options.ts';
import { Failure, type Result, Skip } from './outcome.ts';
import { clone, minimalBody, setPath, uniquify } from './values.ts';

interface Key {
  key: string;
  used: number;
}

/** A record a run created, by the kind its create answered (`data.<kind>`). */
interface CreatedRecord {
  kind: string;
  id: string;
}

export class Session {
  readonly http: Http;
  readonly capabilities: Set<Capability>;
  results: Result[] = [];
  /** `${operationId} ${status}` of every conforming response received. */
  covered = new Set<string>();
  exercised = new Set<string>();
  readonly kinds: Map<string, Operation>;
  storeId: string;
  otherStoreId: string | undefined;
  key: Key | undefined;
  checkoutKeyValue: string | undefined;
  cache = new Map<string, Promise<string>>();
  /** The records this session's requests created (a 201 with `data.<kind>.id`), oldest first. */
  readonly created: CreatedRecord[] = [];
  /** Each kind's v1 delete, through which a run removes what it created. */
  readonly #deletes: Map<string, Operation>;
  /** Whether the session's checks run in a store of their own, which no other session reads. */
  #ownStore = false;

  readonly contract: Contract;
  readonly options: Options;

  constructor(contract: Contract, options: Options) {
    this.contract = contract;
    this.options = options;
    this.http = new Http(options.baseUrl, (exchange) => this.#noteCreated(exchange));
    const profile = options.profile ?? 'server';
    this.capabilities = new Set(PROFILE_CAPABILITIES[profile]);
    if (options.adminToken && profile === 'server') this.capabilities.add('admin');
    if (options.rateLimitMax && options.rateLimitWindowSeconds && this.capabilities.has('admin'))
      this.capabilities.add('rateLimit');
    this.kinds = creators(contract);
    this.#deletes = deleters(contract);
    this.storeId = options.storeId ?? '6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f';
    if (options.apiKey) this.key = { key: options.apiKey, used: 0 };
  }

  /**
   * A session sharing this one's results, in a store of its own with a key of its own (when the admin API
   * is there): each operation's checks then start from an empty store, whatever the others did.
   */
  async child(): Promise<Session> {
    const child = new Session(this.contract, this.options);
    child.results = this.results;
    child.covered = this.covered;
    child.exercised = this.exercised;
    child.otherStoreId = this.otherStoreId;
    child.storeId = this.storeId;
    child.key = this.key;
    child.cache = this.cache;
    child.dropped = this.dropped;
    if (this.has('admin') && this.has('state')) {
      child.storeId = await this.createStore();
      child.key = { key: await this.createKey([child.storeId]), used: 0 };
      child.cache = new Map();
      child.#ownStore = true;
    }
    return child;
  }

  #noteCreated({ response }: Exchange): void {
    const data = response.status === 201 && isObject(response.json) ? response.json.data : undefined;
    const entries = isObject(data) ? Object.entries(data) : [];
    const [kind, record] = entries.length === 1 ? (entries[0] as [string, Json]) : [];
    if (kind && isObject(record) && typeof record.id === 'string') this.created.push({ kind, id: record.id });
  }

  /**
   * Whether the checks write into the partner's own store (an API key without the admin API): the records they
   * create there are then deleted again (`removeCreated`), or a run would leave its test records behind and the
   * next run meet the store's caps.
   */
  get sharesStore(): boolean {
    return this.has('state') && !this.has('admin');
  }

  /**
   * Deletes, once its checks are over, what this session created: in a store of its own all of it, in the
   * partner's store what the run's shared cache does not hold (`removeCached` takes the rest at the end). A
   * webhook left behind would otherwise go on retrying its deliveries to nowhere for hours.
   */
  async cleanUp(): Promise<void> {
    if (this.#ownStore) await this.#remove(this.created);
    else if (this.sharesStore) await this.removeCreated();
  }

  /** Deletes, newest first, the records this session created that are not in the run's cache; best effort. */
  async removeCreated(): Promise<void> {
    const cached = new Set((await this.#cachedRecords()).map(({ id }) => id));
    await this.#remove(this.created.filter(({ id }) => !cached.has(id)));
  }

  /** Deletes the records the run's checks shared (its cache), newest first; best effort. */
  async removeCached(): Promise<void> {
    await this.#remove(await this.#cachedRecords());
  }

  /** The records of the run's cache whose create succeeded. */
  async #cachedRecords(): Promise<CreatedRecord[]> {
    const settled = await Promise.all(
      [...this.cache].map(async ([kind, id]) => ({ kind, id: await id.catch(() => '') })),
    );
    return settled.filter(({ id }) => id !== '');
  }

  async #remove(records: CreatedRecord[]): Promise<void> {
    for (const { kind, id } of [...records].reverse()) {
      const op = this.#deletes.get(kind);
      if (!op) continue;
      const pathParams = { [`${kind}Id`]: id };
      // What is already gone, or refused, stays as it is: the run's checks are over.
      await this.http.call({ method: op.method, path: op.path, pathParams, headers: await this.authHeaders(op) });
    }
  }

  has(capability: Capability): boolean {
    return this.capabilities.has(capability);
  }

  operation(operationId: string): Operation {
    const op = this.contract.operations.find((o) => o.operationId === operationId);
    if (!op) throw new Skip(`the contract has no operation ${operationId}`);
    return op;
  }

  /** Creates the run's own store and key when the target has the admin API and none was given. */
  async prepare(): Promise<void> {
    try {
      await fetch(this.options.baseUrl, { signal: AbortSignal.timeout(30_000) });
    } catch (error) {
      throw new Error(
        `the target ${this.options.baseUrl} does not answer: ${(error as Error).cause ?? (error as Error).message}`,
      );
    }
    if (this.has('admin')) {
      if (!this.options.storeId) {
        this.storeId = await this.createStore();
        this.#ownStore = true;
      }
      this.otherStoreId = await this.createStore();
      if (!this.options.apiKey) this.key = { key: await this.createKey([this.storeId]), used: 0 };
    }
    if (!this.key) {
      if (this.options.profile === 'mock') this.key = { key: `sf_live_${'M'.repeat(43)}`, used: 0 };
      else throw new Error('an API key (--api-key) or an admin token (--admin-token) is needed');
    }
  }

  async adminCall(
    operationId: string,
    pathParams: Record<string, string>,
    body: Json | undefined,
  ): Promise<JsonObject> {
    const op = this.operation(operationId);
    const exchange = await this.http.call({
      method: op.method,
      path: op.path,
      pathParams,
      headers: { authorization: `Bearer ${this.options.adminToken}` },
      body: body ?? undefined,
    });
    const json = exchange.response.json;
    if (exchange.response.status >= 300 || !isObject(json) || !isObject(json.data)) {
      const error =
        isObject(json) && isObject(json.error) ? ` ${String(json.error.code)}: ${String(json.error.message)}` : '';
      throw new Failure(`set-up through ${operationId} failed: HTTP ${exchange.response.status}${error}`, exchange);
    }
    return json.data;
  }

  async createStore(): Promise<string> {
    const data = await this.adminCall(
      'createStore',
      {},
      { name: `Conformance ${randomUUID().slice(0, 8)}`, currency: 'BRL' },
    );
    return String((data.store as JsonObject).id);
  }

  async createKey(storeIds: string[], scopes?: string[]): Promise<string> {
    const body: JsonObject = { name: `conformance ${randomUUID().slice(0, 8)}`, storeIds };
    if (scopes) body.scopes = scopes;
    const data = await this.adminCall('createApiKey', {}, body);
    return String((data.apiKey as JsonObject).key);
  }

  /** The main key; with a known rate limit and the admin API, a fresh one before the window would run out. */
  async apiKey(): Promise<string> {
    const key = this.key as Key;
    const max = this.options.rateLimitMax;
    if (max && this.has('admin') && key.used >= Math.max(1, Math.floor(max * 0.7))) {
      this.key = { key: await this.createKey([this.storeId]), used: 0 };
      return this.apiKey();
    }
    key.used += 1;
    return key.key;
  }

  async checkoutKey(): Promise<string> {
    if (this.checkoutKeyValue) return this.checkoutKeyValue;
    if (!this.has('admin')) {
      if (this.options.profile === 'mock') return `sf_checkout_${'M'.repeat(43)}`;
      throw new Skip('a checkout key needs the admin API (--admin-token)');
    }
    const data = await this.adminCall('createCheckoutKey', { storeId: this.storeId }, undefined);
    this.checkoutKeyValue = String((data.checkoutKey as JsonObject).key);
    return this.checkoutKeyValue;
  }

  /** The credentials headers an operation's security scheme asks for. */
  async authHeaders(op: Operation): Promise<Record<string, string>> {
    if (op.scheme === 'AdminToken') {
      if (!this.options.adminToken && this.options.profile !== 'mock')
        throw new Skip('needs the admin API (--admin-token)');
      return { authorization: `Bearer ${this.options.adminToken ?? 'mock-admin-token-0000'}` };
    }
    if (op.scheme === 'CheckoutApiKey') return { 'x-api-key': await this.checkoutKey() };
    const headers: Record<string, string> = { authorization: `Bearer ${await this.apiKey()}` };
    if (op.parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === 'x-store-id'))
      headers['x-store-id'] = this.storeId;
    return headers;
  }

  /** Id of a record of a kind in the run's store: cached, or new when `fresh`. */
  async record(kind: string, fresh = false): Promise<string> {
    if (kind === 'store') return this.storeId;
    if (!this.has('state')) {
      throw new Skip(`needs state to create a ${kind}`);
    }
    const cacheKey = `${kind}`;
    if (!fresh) {
      const cached = this.cache.get(cacheKey);
      if (cached) return cached;
      const created = this.#create(kind);
      this.cache.set(cacheKey, created);
      created.catch(() => this.cache.delete(cacheKey));
      return created;
    }
    return this.#create(kind);
  }

  async #create(kind: string): Promise<string> {
    if (kind === 'delivery') return this.#delivery();
    const op = this.kinds.get(kind);
    if (!op) throw new Skip(`no operation of the contract creates a ${kind} (201 with data.${kind})`);
    let request = await this.validRequest(op, { minimal: true });
    let exchange = await this.http.call({ method: op.method, path: op.path, ...request });
    if (exchange.response.status === 400) {
      // a rule beyond the schema wanted more than the required fields: the whole example then
      request = await this.validRequest(op);
      exchange = await this.http.call({ method: op.method, path: op.path, ...request });
    }
    exchange = await this.freeEnumValue(op, request, exchange);
    const json = exchange.response.json;
    const created = isObject(json) && isObject(json.data) ? json.data[kind] : undefined;
    if (exchange.response.status !== 201 || !isObject(created) || typeof created.id !== 'string') {
      throw new Failure(
        `set-up: creating a ${kind} through ${op.operationId} did not answer 201 with data.${kind}.id`,
        exchange,
      );
    }
    return created.id;
  }

  /**
   * A webhook delivery has no create operation: a product created in the store gives the run's webhook
   * (subscribed to PRODUCT_CREATED in the contract's example) one, read back from its delivery log.
   */
  async #delivery(): Promise<string> {
    const log = this.contract.operations.find((op) => op.operationId === 'listWebhookDeliveries');
    if (!log) throw new Skip('the contract has no delivery log to find a delivery in');
    const webhookId = await this.record('webhook');
    await this.record('product', true);
    const exchange = await this.http.call({
      method: log.method,
      path: log.path,
      pathParams: { webhookId },
      headers: await this.authHeaders(log),
    });
    const json = exchange.response.json;
    const deliveries = isObject(json) && isObject(json.data) ? json.data.deliveries : undefined;
    const first = Array.isArray(deliveries) ? deliveries[0] : undefined;
    if (!isObject(first) || typeof first.id !== 'string') {
      throw new Failure('set-up: a product created gave the webhook no delivery in listWebhookDeliveries', exchange);
    }
    return first.id;
  }

  /**
   * One record per value of an enum (e.g. one payment discount per method): after a 409 naming such a field,
   * the other values are tried; when every one is taken in the store, the check cannot be made here.
   */
  async freeEnumValue(op: Operation, request: { body?: Json }, first: Exchange): Promise<Exchange> {
    let exchange = first;
    if (exchange.response.status !== 409 || !isObject(request.body)) return exchange;
    const schema = this.contract.deref(op.requestBody?.schema as Json);
    const props = isObject(schema) && isObject(schema.properties) ? schema.properties : {};
    for (const { path: detail } of errorDetails(exchange)) {
      const field = this.contract.deref(props[detail] as Json);
      const options = isObject(field) && Array.isArray(field.enum) ? field.enum : [];
      for (const option of options) {
        exchange = await this.http.call({
          method: op.method,
          path: op.path,
          ...request,
          body: { ...request.body, [detail]: option },
        });
        if (exchange.response.status !== 409) return exchange;
      }
      if (options.length > 0) {
        throw new Skip(
          `every value of ${detail} is taken in this store (one record per value); with --admin-token each operation gets a store of its own`,
        );
      }
    }
    return exchange;
  }

  /**
   * A request the contract says must succeed: path ids of the run's own records, the credentials, and the
   * operation's request example with its references replaced by the run's records and its names made unique.
   */
  async validRequest(
    op: Operation,
    { fresh = false, minimal = false } = {},
  ): Promise<{
    pathParams: Record<string, string>;
    headers: Record<string, string>;
    body?: Json;
    subject?: string;
  }> {
    const pathParams: Record<string, string> = {};
    const pathNames = op.parameters.filter((p) => p.in === 'path').map((p) => p.name);
    const subject = pathNames.at(-1);
    for (const name of pathNames) {
      if (!this.has('state')) {
        const example = op.parameters.find((p) => p.name === name)?.example;
        pathParams[name] = name === 'storeId' ? this.storeId : typeof example === 'string' ? example : randomUUID();
        continue;
      }
      const kind = kindOf(name, new Set([...this.kinds.keys(), 'store', 'delivery']));
      if (!kind) throw new Skip(`no record kind for the path parameter ${name}`);
      pathParams[name] = await this.record(kind, fresh && name === subject && op.method === 'delete');
    }
    const headers = await this.authHeaders(op);
    if (!op.requestBody) return { pathParams, headers, ...(subject ? { subject } : {}) };
    if (op.requestBody.example === undefined)
      throw new Skip(`${op.operationId} has no request example to build a valid body from`);
    let body = clone(op.requestBody.example) as Json;
    if (minimal) {
      const reduced = minimalBody(this.contract, op.requestBody.schema as Json, body);
      if (this.contract.validates(op.requestBody.schema, reduced)) body = reduced;
    }
    for (const field of this.dropped.get(op.operationId) ?? []) body = setPath(body, field, undefined);
    body = uniquify(this.contract, op.requestBody.schema as Json, await this.substitute(body));
    return { pathParams, headers, body, ...(subject ? { subject } : {}) };
  }

  /** Replaces the uuids of reference fields (productId, triggerProductIds, template_id, storeIds...) with the run's records. */
  async substitute(
    value: Json,
    key = '',
    seen = new Map<string, Promise<string>>(),
    kinds = new Set<string>(),
  ): Promise<Json> {
    if (Array.isArray(value)) {
      const out: Json[] = [];
      for (const item of value) out.push(await this.substitute(item, key, seen, kinds));
      return out;
    }
    if (isObject(value)) {
      const out: JsonObject = {};
      for (const [k, v] of Object.entries(value)) out[k] = await this.substitute(v, k, seen, kinds);
      return out;
    }
    if (typeof value !== 'string' || !/^[0-9a-f]{8}-[0-9a-f]{4}-/i.test(value) || !this.has('state')) return value;
    const kind = kindOf(key, new Set([...this.kinds.keys(), 'store']));
    if (!kind) return value;
    // the same example id is the same record; a second id of a kind is another record
    let id = seen.get(value);
    if (!id) {
      id = this.record(kind, kinds.has(kind) && kind !== 'store');
      kinds.add(kind);
      seen.set(value, id);
    }
    return id;
  }

  /** Optional fields of an operation's example that refer to records by something other than an id. */
  dropped = new Map<string, string[]>();

  /** Reference fields of a body (path → kind), for the 422 checks. */
  referenceFields(value: Json, at = '', key = ''): string[] {
    if (Array.isArray(value)) return value.length > 0 ? this.referenceFields(value[0] as Json, `${at}.0`, key) : [];
    if (isObject(value)) {
      return Object.entries(value).flatMap(([k, v]) => this.referenceFields(v, at ? `${at}.${k}` : k, k));
    }
    const known = new Set([...this.kinds.keys(), 'store']);
    return typeof value === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-/i.test(value) && kindOf(key, known) ? [at] : [];
  }

  /** Runs one check and records its outcome. */
  async check(operationId: string, rule: string, run: () => Promise<void>): Promise<void> {
    try {
      await run();
      this.results.push({ operationId, rule, outcome: 'pass' });
    } catch (error) {
      if (error instanceof Skip) this.results.push({ operationId, rule, outcome: 'skip', message: error.message });
      else if (
        error instanceof Failure &&
        this.options.knownFailures?.some((known) => `${operationId} — ${rule}`.startsWith(known))
      ) {
        this.results.push({
          operationId,
          rule,
          outcome: 'skip',
          message: `known defect of the target: ${error.message}`,
        });
      } else if (error instanceof Failure) {
        this.results.push({
          operationId,
          rule,
          outcome: 'fail',
          message: error.message,
          exchange: describeExchange(error.exchange),
        });
      } else {
        this.results.push({ operationId, rule, outcome: 'fail', message: (error as Error).stack ?? String(error) });
      }
    }
  }
}
