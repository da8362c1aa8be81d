import createClient, { type FetchResponse, type MaybeOptionalInit } from 'openapi-fetch';
import type { components } from '../../generated/openapi-wire.ts';
import { StorefrontApiError } from './errors.ts';
import { isIdempotentPost, type StorefrontPaths } from './paths.ts';
import { type RetryOptions, retryingFetch, retryOptions } from './retry.ts';

export interface StorefrontClientOptions {
  /** Where the API lives, e.g. `http://127.0.0.1:3000` (the server) or `http://127.0.0.1:4010` (the mock). */
  baseUrl: string;
  /** An API key, `sf_live_...`; sent as `Authorization: Bearer`. */
  apiKey: string;
  /** The store every call acts on; sent as `X-Store-Id`. */
  storeId: string;
  /** Retry policy; any field left out keeps its default (4 attempts, 250 ms base, 60 s cap). */
  retry?: Partial<RetryOptions>;
  /** The fetch to send with (default: the global one). */
  fetch?: (request: Request) => Promise<Response>;
  /** Makes the `Idempotency-Key` of idempotent POSTs that have none (default: a random UUID). */
  idempotencyKey?: () => string;
}

type Media = `${string}/${string}`;
type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';

/** The paths that have an operation for method `M`. */
type PathsWith<M extends Method> = {
  [P in keyof StorefrontPaths]: StorefrontPaths[P] extends { [K in M]: unknown } ? P : never;
}[keyof StorefrontPaths];

/** openapi-fetch's rule: the init argument may be left out when nothing in it is required. */
type InitParam<Init> = [keyof Init] extends [never]
  ? [Init?]
  : Record<never, never> extends { [K in keyof Init as undefined extends Init[K] ? never : K]: Init[K] }
    ? [Init?]
    : [Init];

/** What a call resolves to: openapi-fetch's success branch (`data` is there, typed by the contract). */
export type Success<
  P extends keyof StorefrontPaths,
  M extends keyof StorefrontPaths[P],
  Init = unknown,
> = StorefrontPaths[P][M] extends infer Operation extends Record<string | number, unknown>
  ? Extract<FetchResponse<Operation, Init, Media>, { error?: never }>
  : never;

type Call<M extends Method> = <P extends PathsWith<M>, Init extends MaybeOptionalInit<StorefrontPaths[P], M>>(
  url: P,
  ...init: InitParam<Init>
) => Promise<Success<P, M & keyof StorefrontPaths[P], Init>>;

/** The JSON body of a GET's 200 answer, as the contract has it. */
type OkBody<P extends PathsWith<'get'>> = StorefrontPaths[P] extends {
  get: { responses: { 200: { content: { 'application/json': infer Body } } } };
}
  ? Body
  : never;

/** GET paths that answer a page: `data.pagination` next to one list. */
export type PagedPath = {
  [P in PathsWith<'get'>]: OkBody<P> extends { data: { pagination: components['schemas']['Pagination'] } } ? P : never;
}[PathsWith<'get'>];

/** The items of a paged list: the one array beside `pagination`. */
export type ItemOf<P extends PagedPath> =
  OkBody<P> extends { data: infer Page }
    ? { [K in keyof Page]: K extends 'pagination' ? never : Page[K] extends (infer Item)[] ? Item : never }[keyof Page]
    : never;

export interface StorefrontClient {
  GET: Call<'get'>;
  POST: Call<'post'>;
  PUT: Call<'put'>;
  PATCH: Call<'patch'>;
  DELETE: Call<'delete'>;
  /** Every item of a paged list, page after page (`pagination.page` up to `pagination.totalPages`). */
  listAll<P extends PagedPath>(
    url: P,
    ...init: InitParam<MaybeOptionalInit<StorefrontPaths[P], 'get'>>
  ): AsyncIterableIterator<ItemOf<P>>;
}

interface UntypedInit {
  params?: { query?: Record<string, unknown> } & Record<string, unknown>;
  [key: string]: unknown;
}
type UntypedCall = (
  url: string,
  init?: UntypedInit,
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/**
 * A typed client of the Storefront API v1 on openapi-fetch: paths, parameters, bodies and answers come from the
 * contract (`generated/`). The key and the store are set here once. Idempotent POSTs get an `Idempotency-Key`
 * when the call gives none, kept across retries; 429s, and network errors and 5xx of requests safe to repeat,
 * are retried (see `RetryOptions`). A call resolves with `{ data, response }` on success and rejects with a
 * `StorefrontApiError` on any other answer.
 */
export function createStorefrontClient(options: StorefrontClientOptions): StorefrontClient {
  const retry = retryOptions(options.retry);
  const newKey = options.idempotencyKey ?? (() => crypto.randomUUID());
  const api = createClient<StorefrontPaths, Media>({
    baseUrl: options.baseUrl,
    headers: { Authorization: `Bearer ${options.apiKey}`, 'X-Store-Id': options.storeId },
    fetch: retryingFetch(options.fetch ?? ((request) => fetch(request)), retry),
  });
  api.use({
    onRequest({ request, schemaPath }) {
      if (request.method === 'POST' && isIdempotentPost(schemaPath) && !request.headers.has('Idempotency-Key')) {
        request.headers.set('Idempotency-Key', newKey());
      }
      return request;
    },
  });

  const call =
    (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'): UntypedCall =>
    async (url, init) => {
      const result = await (api[method] as unknown as UntypedCall)(url, init);
      if (!result.response.ok) throw new StorefrontApiError(result.response, result.error);
      return result;
    };
  const get = call('GET');

  async function* listAll(url: string, init: UntypedInit = {}) {
    const query = init.params?.query ?? {};
    for (let page = Number(query.page ?? 1); ; page++) {
      const { data } = await get(url, { ...init, params: { ...init.params, query: { ...query, page } } });
      const { pagination, ...lists } = (data as { data: { pagination: components['schemas']['Pagination'] } }).data;
      const items: unknown[] = Object.values(lists).find(Array.isArray) ?? [];
      yield* items;
      // The page asked for, not the one echoed: a stateless mock answers the same page every time.
      if (items.length === 0 || page >= pagination.totalPages) return;
    }
  }

  return {
    GET: get,
    POST: call('POST'),
    PUT: call('PUT'),
    PATCH: call('PATCH'),
    DELETE: call('DELETE'),
    listAll,
  } as unknown as StorefrontClient;
}
