import { createRequire } from 'node:module';

/** The options the callers pass (validator: sensitive, strict; router: end, trailing, sensitive, delimiter). */
const keyOf = (options: Record<string, unknown>): string =>
  `${options.sensitive}|${options.strict}|${options.end}|${options.trailing}|${options.delimiter}`;

type PathToRegexp = (path: string, options?: object) => { regexp: RegExp; keys: { name: string }[] };

/**
 * express-openapi-validator finds the operation of a request by compiling every route of the contract with
 * path-to-regexp on every request until one matches (dist/middlewares/openapi.metadata.js, lookupRoute): with
 * 50 paths that is most of the per-request cost (upstream: cdimascio/express-openapi-validator#1217, "perf:
 * cache route matchers"). The compiled matcher depends only on the path and the options, and its regexp has no
 * `g` flag (no state between exec calls), so one compilation per (path, options) is reused. Call once, before
 * the validator handles requests.
 */
export function cacheRouteMatchers(): void {
  const load = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));
  const module = load('path-to-regexp') as { pathToRegexp: PathToRegexp & { cached?: true } };
  if (module.pathToRegexp.cached) return;
  const compile = module.pathToRegexp;
  const cache = new Map<string, ReturnType<PathToRegexp>>();
  const cached: PathToRegexp & { cached?: true } = (path, options) => {
    const key = options ? `${path}\u0000${keyOf(options as Record<string, unknown>)}` : path;
    let matcher = cache.get(key);
    if (!matcher) {
      matcher = compile(path, options);
      cache.set(key, matcher);
    }
    return matcher;
  };
  cached.cached = true;
  module.pathToRegexp = cached;
}
