// Every operation under `paths:` documents its 429 answer. Exempt: webhook deliveries (top-level
// `webhooks:`), since we are the client there, and the Admin API, which is not rate-limited.
import { isAdmin, isWebhook } from './location.js';

export default function OperationRateLimited() {
  return {
    Operation: {
      enter(operation, ctx) {
        if (isWebhook(ctx) || isAdmin(ctx)) return;
        if (!Object.hasOwn(operation.responses ?? {}, '429')) {
          ctx.report({
            message: "Operation must document a 429 response (`'429': {$ref: '#/components/responses/RateLimited'}`).",
            location: ctx.location.child('responses').key(),
          });
        }
      },
    },
  };
}
