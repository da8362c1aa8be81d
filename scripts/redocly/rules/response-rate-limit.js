// Every response of an operation the rate limit applies to (not the Admin API, not webhook deliveries) declares
// `RateLimit` and `RateLimit-Policy`, except its 401: the key's quota is counted only once the key is accepted.
import { isAdmin, isWebhook } from './location.js';

const HEADERS = ['RateLimit', 'RateLimit-Policy'];

export default function ResponseRateLimit() {
  return {
    Operation: {
      enter(operation, ctx) {
        if (isWebhook(ctx) || isAdmin(ctx)) return;
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          if (status === '401') continue;
          const headers = ctx.resolve(response).node?.headers ?? {};
          const missing = HEADERS.filter((name) => !Object.hasOwn(headers, name));
          if (missing.length === 0) continue;
          ctx.report({
            message: `Response ${status} must declare ${missing.join(' and ')} (\`$ref: '#/components/headers/…'\`): the rate limit answers for every response but the 401.`,
            location: ctx.location.child(['responses', status]),
          });
        }
      },
    },
  };
}
