// Example text that Postman-based tools can read. Portman, and the Postman converters built the same way, quote
// `{{variable}}` in a JSON body before parsing it and take `}},` and `: {{` for the edges of an unquoted
// variable: a string holding either breaks the whole body, and Portman stops making its collection. Placeholders
// such as `{{customer.name}}` stay fine where neither follows or precedes them.
const BREAKS_POSTMAN = /\}\},|: \{\{/;

/** Every string in an example's value, with its path below the value. */
function* strings(value, path = []) {
  if (typeof value === 'string') yield [path, value];
  else if (Array.isArray(value)) for (const [index, item] of value.entries()) yield* strings(item, [...path, index]);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) yield* strings(item, [...path, key]);
  }
}

export default function ExamplePostmanSafe() {
  const check = (value, ctx, at) => {
    for (const [path, text] of strings(value)) {
      if (!BREAKS_POSTMAN.test(text)) continue;
      ctx.report({
        message: "Example text must not hold '}},' or ': {{' (Postman tools read them as a variable's edge).",
        location: ctx.location.child([at, ...path]),
      });
    }
  };
  return {
    Example: { enter: (example, ctx) => check(example.value, ctx, 'value') },
    MediaType: { enter: (media, ctx) => check(media.example, ctx, 'example') },
  };
}
