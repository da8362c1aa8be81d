// The suite's only way to reach the target: the typed openapi-fetch client built on generated/, with a fetch
// that records every exchange so a failure can show the request and the response as they were.
import createClient from 'openapi-fetch';
import type { paths } from '../../generated/openapi.ts';

export interface Exchange {
  request: { method: string; url: string; headers: Record<string, string>; body?: string };
  response: { status: number; headers: Record<string, string>; body: string; json?: unknown };
}

export type ApiClient = ReturnType<typeof createClient<paths>>;

export interface Call {
  method: string;
  /** The contract path template, e.g. /api/v1/products/{productId}. */
  path: string;
  pathParams?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string | undefined>;
  /** undefined sends no body. */
  body?: unknown;
  /** A 429 is what the check wants: do not wait and retry. */
  accept429?: boolean;
}

/** Longest Retry-After the suite waits for before retrying a request that was rate limited by accident. */
const MAX_RETRY_AFTER_SECONDS = 65;

/** A recording HTTP client for one base URL. */
export class Http {
  readonly client: ApiClient;
  last: Exchange | undefined;
  requests = 0;
  /** Waits (seconds) spent honouring Retry-After. */
  waited = 0;
  /** In-flight calls that want a 429 (a counter: the burn of a window sends many at once). */
  #accepting429 = 0;

  readonly baseUrl: string;
  readonly #observe: (exchange: Exchange) => void;

  /** `observe` is told of every exchange as it is recorded. */
  constructor(baseUrl: string, observe: (exchange: Exchange) => void = () => {}) {
    this.baseUrl = baseUrl;
    this.#observe = observe;
    this.client = createClient<paths>({ baseUrl: baseUrl.replace(/\/$/, ''), fetch: (req) => this.#fetch(req) });
  }

  async #fetch(request: Request): Promise<Response> {
    const requestBody = request.body ? await request.clone().text() : undefined;
    let response: Response;
    try {
      response = await fetch(request.clone());
    } catch {
      // a kept-alive connection the server closed at the same moment: the request never arrived, send it again
      response = await fetch(request);
    }
    const retryAfter = Number(response.headers.get('retry-after'));
    if (
      response.status === 429 &&
      this.#accepting429 === 0 &&
      retryAfter > 0 &&
      retryAfter <= MAX_RETRY_AFTER_SECONDS
    ) {
      // rate limited by accident (the suite's own volume): wait as the contract says, then send it again
      await response.body?.cancel();
      this.waited += retryAfter;
      await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
      return this.#fetch(request);
    }
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    this.requests += 1;
    this.last = {
      request: {
        method: request.method,
        url: request.url,
        headers: Object.fromEntries(request.headers),
        ...(requestBody !== undefined ? { body: requestBody } : {}),
      },
      response: { status: response.status, headers: Object.fromEntries(response.headers), body: text, json },
    };
    this.#observe(this.last);
    const empty = response.status === 204 || response.status === 304;
    return new Response(empty ? null : text, { status: response.status, headers: response.headers });
  }

  /** Any operation by method and path template: what the generic checks use. */
  async call(call: Call): Promise<Exchange> {
    const headers = Object.fromEntries(
      Object.entries(call.headers ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined),
    );
    const init = {
      params: { path: call.pathParams ?? {}, query: call.query ?? {} },
      headers,
      ...(call.body !== undefined ? { body: call.body } : {}),
      parseAs: 'text' as const,
    };
    // The generic checks walk every operation of the contract, so the path is only known at run time.
    const request = this.client.request as unknown as (m: string, p: string, i: unknown) => Promise<unknown>;
    if (call.accept429) this.#accepting429 += 1;
    try {
      await request(call.method.toUpperCase(), call.path, init);
    } finally {
      if (call.accept429) this.#accepting429 -= 1;
    }
    if (!this.last) throw new Error('no exchange recorded');
    return this.last;
  }
}

/** Renders an exchange for a failure message: request line, headers that matter, bodies cut to size. */
export function describeExchange(exchange: Exchange | undefined, max = 1200): string {
  if (!exchange) return '(no exchange)';
  const { request, response } = exchange;
  const cut = (text: string) => (text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text);
  const shown = ['authorization', 'x-store-id', 'x-api-key', 'idempotency-key', 'content-type'];
  const reqHeaders = Object.entries(request.headers)
    .filter(([k]) => shown.includes(k))
    .map(([k, v]) => `${k}: ${k === 'authorization' || k === 'x-api-key' ? redact(v) : v}`);
  const resHeaders = Object.entries(response.headers)
    .filter(([k]) => ['content-type', 'retry-after', 'idempotent-replayed'].includes(k))
    .map(([k, v]) => `${k}: ${v}`);
  return [
    `> ${request.method} ${request.url}`,
    ...reqHeaders.map((h) => `> ${h}`),
    ...(request.body ? [`> ${cut(request.body)}`] : []),
    `< ${response.status}`,
    ...resHeaders.map((h) => `< ${h}`),
    ...(response.body ? [`< ${cut(response.body)}`] : []),
  ].join('\n');
}

function redact(value: string): string {
  return value
    .replace(/(sf_(?:live|checkout)_[A-Za-z0-9_-]{4})[A-Za-z0-9_-]+/, '$1…')
    .replace(/(Bearer \S{4})\S{12,}/, '$1…');
}
