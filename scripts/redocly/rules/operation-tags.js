// Every operation carries at least one tag (so every operation lands in a docs group).
export default function OperationTags() {
  return {
    Operation: {
      enter(operation, ctx) {
        if (!Array.isArray(operation.tags) || operation.tags.length === 0) {
          ctx.report({
            message: 'Operation must have at least one tag.',
            location: operation.tags === undefined ? ctx.location.key() : ctx.location.child('tags'),
          });
        }
      },
    },
  };
}
