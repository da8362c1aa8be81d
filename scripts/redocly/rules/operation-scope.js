// Every operation under `paths:` names the scope it needs: one of its effective
// security requirements lists at least one scope. Exempt: /admin and /checkout
// paths (their schemes carry no scopes) and webhook deliveries (we send them).
import { isWebhook, pathOf } from './location.js';

const EXEMPT = /\/(admin|checkout)(\/|$)/;

export default function OperationScope() {
  let rootSecurity;
  return {
    Root: {
      enter(root) {
        rootSecurity = root.security;
      },
    },
    Operation: {
      enter(operation, ctx) {
        if (isWebhook(ctx)) return;
        const path = pathOf(ctx) ?? '';
        if (EXEMPT.test(path)) return;
        const security = operation.security ?? rootSecurity ?? [];
        const scoped = security.some((requirement) =>
          Object.values(requirement ?? {}).some((scopes) => Array.isArray(scopes) && scopes.length > 0),
        );
        if (!scoped) {
          ctx.report({
            message: `Operation must list a scope in its security requirement, e.g. \`security: [{ApiKeyAuth: ['resource:read']}]\` (${path} is not under /admin or /checkout).`,
            location: operation.security === undefined ? ctx.location.key() : ctx.location.child('security'),
          });
        }
      },
    },
  };
}
