// Docs only (applied to the `storefront-docs` API by `npm run docs`, never to
// openapi.yaml): makes provenance visible at a glance. Each operation gets an
// `x-badges` entry, which Redoc shows before the operation title, in the sidebar
// and in each tag's operation list. Redoc shows no badge on a schema: a schema's
// provenance is its description's first words, `**Documented**`/`**Inferred**`.
// White text on each color reads at a contrast of at least 4.5:1 (WCAG AA) wherever Redoc shows the badge: the
// search results use the color as given, and on CSS's `orange` white text read 2:1.
const BADGES = {
  documented: { name: 'Documented', color: 'green' },
  inferred: { name: 'Inferred', color: '#b45309' },
};

export default function ProvenanceBadges() {
  return {
    Operation: {
      leave(operation) {
        const badge = BADGES[operation['x-provenance']];
        if (!badge) return;
        const badges = Array.isArray(operation['x-badges']) ? operation['x-badges'] : [];
        operation['x-badges'] = [...badges, { name: badge.name, color: badge.color, position: 'before' }];
      },
    },
  };
}
