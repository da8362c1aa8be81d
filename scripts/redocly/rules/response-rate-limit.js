// Every response of an operation the rate limit applies to (not the Admin API, not webhook deliveries) declares
// `RateLimit` and `RateLimit-Policy`, except its 401: the key's quota is counted only once the key is accepted.
// On a 2xx, which only an accepted key gets, both are `required`.
import { isAdmin, isWebhook } from './location.js';

const HEADERS = ['RateLimit', 'RateLimit-Policy'];

/** What is wrong with a response's rate-limit headers, or undefined. */
function problem(status, headers, ctx) {
  const missing = HEADERS.filter((name) => !Object.hasOwn(headers, name));
  if (missing.length > 0) return `declare ${missing.join(' and ')}`;
  if (!status.startsWith('2')) return undefined;
  const optional = HEADERS.filter((name) => ctx.resolve(headers[name]).node?.required !== true);
  return optional.length > 0 ? `declare ${optional.join(' and ')} required (a 2xx always has them)` : undefined;
}

export default function ResponseRateLimit() {
  return {
    Operation: {
      enter(operation, ctx) {
        if (isWebhook(ctx) || isAdmin(ctx)) return;
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          if (status === '401') continue;
          const found = problem(status, ctx.resolve(response).node?.headers ?? {}, ctx);
          if (!found) continue;
          ctx.report({
            message: `Response ${status} must ${found} (\`$ref: '#/components/headers/…'\`): the rate limit answers for every response but the 401.`,
            location: ctx.location.child(['responses', status]),
          });
        }
      },
    },
  };
}
