// Every operation under `paths:` documents its 429 answer; webhook deliveries
// (top-level `webhooks:`) are exempt, since we are the client there.
import { isWebhook } from './location.js';

export default function OperationRateLimited() {
  return {
    Operation: {
      enter(operation, ctx) {
        if (isWebhook(ctx)) return;
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
