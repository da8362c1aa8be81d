// A schema marked `x-provenance: inferred` says so in its description.
const VALUES = ['documented', 'inferred'];

export default function SchemaProvenance() {
  return {
    Schema: {
      enter(schema, ctx) {
        if (!Object.hasOwn(schema, 'x-provenance')) return;
        const provenance = schema['x-provenance'];
        if (!VALUES.includes(provenance)) {
          ctx.report({
            message: `\`x-provenance\` must be one of ${VALUES.join(', ')} (got ${JSON.stringify(provenance)}).`,
            location: ctx.location.child('x-provenance'),
          });
          return;
        }
        const description = typeof schema.description === 'string' ? schema.description.trimStart() : '';
        if (provenance === 'inferred' && !description.startsWith('**Inferred**')) {
          ctx.report({
            message: 'A schema with `x-provenance: inferred` must have a description starting with `**Inferred**`.',
            location:
              schema.description === undefined ? ctx.location.child('x-provenance') : ctx.location.child('description'),
          });
        }
      },
    },
  };
}
