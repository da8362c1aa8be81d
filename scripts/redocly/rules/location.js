// Helpers shared by the rules: where an operation sits in the document.

/** JSON pointer of the node being visited, e.g. `#/paths/~1api~1v1~1products/get`. */
export function pointerOf(ctx) {
  return ctx.location.pointer;
}

/** True for operations under the top-level `webhooks:` map (deliveries we send). */
export function isWebhook(ctx) {
  return pointerOf(ctx).startsWith('#/webhooks/');
}

/** The path template of an operation under `paths:`, or undefined (webhooks). */
export function pathOf(ctx) {
  const match = /^#\/paths\/([^/]+)\//.exec(pointerOf(ctx));
  return match?.[1]?.replaceAll('~1', '/').replaceAll('~0', '~');
}

/** True for operations of the Admin API: the operator's own tool, authenticated by the admin token. */
export function isAdmin(ctx) {
  return /\/admin(\/|$)/.test(pathOf(ctx) ?? '');
}
