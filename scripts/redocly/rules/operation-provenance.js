// Every operation says where it comes from: `x-provenance: documented|inferred`,
// and its description opens with the matching bold marker.
const MARKERS = { documented: '**Documented**', inferred: '**Inferred**' };

export default function OperationProvenance() {
  return {
    Operation: {
      enter(operation, ctx) {
        const provenance = operation['x-provenance'];
        if (!Object.hasOwn(MARKERS, provenance)) {
          ctx.report({
            message: `\`x-provenance\` must be one of ${Object.keys(MARKERS).join(', ')} (got ${JSON.stringify(provenance)}).`,
            location: provenance === undefined ? ctx.location.key() : ctx.location.child('x-provenance'),
          });
        }
        const description = typeof operation.description === 'string' ? operation.description.trimStart() : '';
        const marker = MARKERS[provenance];
        if (!description.startsWith(MARKERS.documented) && !description.startsWith(MARKERS.inferred)) {
          ctx.report({
            message: 'Operation description must start with `**Documented**` or `**Inferred**`.',
            location: operation.description === undefined ? ctx.location.key() : ctx.location.child('description'),
          });
        } else if (marker && !description.startsWith(marker)) {
          ctx.report({
            message: `Description starts with the wrong marker: \`x-provenance: ${provenance}\` needs \`${marker}\`.`,
            location: ctx.location.child('description'),
          });
        }
      },
    },
  };
}
