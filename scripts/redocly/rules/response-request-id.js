// Every response the API sends declares `X-Request-Id`, written once under `components/headers/RequestId`.
// Exempt: webhook deliveries (top-level `webhooks:`), where the receiver answers, not us.
import { isWebhook } from './location.js';

const REF = '#/components/headers/RequestId';

export default function ResponseRequestId() {
  return {
    Response: {
      enter(response, ctx) {
        if (isWebhook(ctx)) return;
        const header = response.headers?.['X-Request-Id'];
        if (header?.$ref !== REF) {
          ctx.report({
            message: `Response must declare the X-Request-Id header (\`X-Request-Id: {$ref: '${REF}'}\`).`,
            location: response.headers ? ctx.location.child('headers') : ctx.location,
          });
        }
      },
    },
  };
}
