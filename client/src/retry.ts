/** How the client retries: at most `attempts` sends in all, waits growing from `baseMs` and capped at `maxMs`. */
export interface RetryOptions {
  /** Sends of one request at most, the first included (1 = never retry). Default 4. */
  attempts: number;
  /** The first back-off, in ms; each further one doubles, with full jitter. Default 250. */
  baseMs: number;
  /** No wait is longer than this; a 429 asking for longer is returned to the caller instead. Default 60 000. */
  maxMs: number;
}

export const DEFAULT_RETRY: RetryOptions = { attempts: 4, baseMs: 250, maxMs: 60_000 };

/**
 * The options a caller gives, each field left out, `undefined` or not a number keeping its default: spread over
 * the defaults, `{ attempts: undefined }` would retry without end and `{ baseMs: undefined }` without waiting.
 */
export function retryOptions(given: Partial<RetryOptions> = {}): RetryOptions {
  const pick = (name: keyof RetryOptions): number => {
    const value = given[name];
    return typeof value === 'number' && !Number.isNaN(value) ? value : DEFAULT_RETRY[name];
  };
  return { attempts: pick('attempts'), baseMs: pick('baseMs'), maxMs: pick('maxMs') };
}

/** Methods whose repetition changes nothing more than the first send did. */
const REPEATABLE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

/**
 * Safe to send again after a network error or a 5xx, when the first send may have had its effect: a repeatable
 * method, or a POST the server de-duplicates by its `Idempotency-Key`.
 */
export const safeToRepeat = (request: Request): boolean =>
  REPEATABLE_METHODS.has(request.method) || (request.method === 'POST' && request.headers.has('Idempotency-Key'));

/** Full jitter: a random wait up to the exponential step (AWS Architecture Blog, "Exponential Backoff and Jitter"). */
const backoff = (retry: number, { baseMs, maxMs }: RetryOptions): number =>
  Math.random() * Math.min(maxMs, baseMs * 2 ** retry);

/** `Retry-After` in ms: whole seconds (the contract's form) or an HTTP date; null when absent or unreadable. */
function retryAfterMs(response: Response): number | null {
  const value = response.headers.get('Retry-After');
  if (value === null) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The 409 `IDEMPOTENCY_KEY_IN_USE`: a send with this request's `Idempotency-Key` is still running (an earlier send
 * whose answer was lost, say). Sent again with the same key, it gets that send's reply once it has finished.
 */
async function keyInUse(request: Request, response: Response): Promise<boolean> {
  if (response.status !== 409 || !request.headers.has('Idempotency-Key')) return false;
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => undefined);
  const error = (body as { error?: { code?: unknown } } | undefined)?.error;
  return error?.code === 'IDEMPOTENCY_KEY_IN_USE';
}

/**
 * A fetch that retries: on 429 any request (the server refused it before doing anything), after `Retry-After`
 * plus a little jitter so clients do not return all at once; on a network error or a 5xx only a request that is
 * safe to repeat, and on 409 `IDEMPOTENCY_KEY_IN_USE` a request with its key, after an exponential back-off. Every send is a clone of the same Request, so its headers
 * (the `Idempotency-Key` among them) and body are the same each time. The last answer, or error, is the caller's.
 */
export function retryingFetch(send: (request: Request) => Promise<Response>, options: RetryOptions) {
  return async (request: Request): Promise<Response> => {
    for (let retry = 0; ; retry++) {
      const last = retry + 1 >= options.attempts;
      let response: Response;
      try {
        response = await send(request.clone());
      } catch (error) {
        if (last || request.signal.aborted || !safeToRepeat(request)) throw error;
        await sleep(backoff(retry, options), request.signal);
        continue;
      }
      let wait: number | null = null;
      if (response.status === 429) {
        const asked = retryAfterMs(response);
        // The jitter never turns a wait the caller allows into one it does not.
        if (asked === null) wait = backoff(retry, options);
        else if (asked <= options.maxMs) wait = Math.min(options.maxMs, asked + Math.random() * options.baseMs);
      } else if ((response.status >= 500 && safeToRepeat(request)) || (await keyInUse(request, response))) {
        wait = backoff(retry, options);
      }
      if (last || wait === null) return response;
      await response.body?.cancel();
      await sleep(wait, request.signal);
    }
  };
}
