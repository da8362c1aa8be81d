// Docs only (applied to the `storefront-docs` API by `npm run docs`, never to openapi.yaml): each operation's
// description ends with its operationId, the name the README, the typed client's errors, the conformance report
// and the deep links (`#/products/createproduct`) call it by, so that the docs' search finds it by that name.
export default function OperationIds() {
  return {
    Operation: {
      leave(operation) {
        if (typeof operation.operationId !== 'string') return;
        const description = typeof operation.description === 'string' ? `${operation.description.trimEnd()}\n\n` : '';
        operation.description = `${description}Operation id: ${operation.operationId}`;
      },
    },
  };
}
