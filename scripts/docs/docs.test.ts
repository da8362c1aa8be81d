// The built reference is one offline file: no script, stylesheet, font or image is
// loaded from the network, and the provenance badges are in it.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CONTRACT_SPEC, FIXTURE_SPEC, REDOCLY_CLI, runNode } from '../test-helpers/run.ts';

/** Every http(s) URL the page would fetch by itself: src/href of script, link, img, iframe, source; CSS url()/@import. */
function externalResources(html: string): string[] {
  const tags = [...html.matchAll(/<(?:script|link|img|iframe|source|video|audio|embed|object)\b[^>]*>/gi)].flatMap(
    ([tag]) => [...tag.matchAll(/\b(?:src|href|srcset|data)\s*=\s*["']?\s*(https?:\/\/[^"'\s>]+)/gi)].map((m) => m[1]),
  );
  const css = [...html.matchAll(/(?:url\(\s*["']?|@import\s+["'])(https?:\/\/[^"')\s]+)/gi)].map((m) => m[1]);
  return [...tags, ...css].filter((url): url is string => url !== undefined);
}

const cases: [string, { given: string; want: string[] }][] = [
  ['inline bundle', { given: '<script type="module">const a = 1;</script>', want: [] }],
  [
    'CDN script',
    { given: '<script src="https://cdn.example/redoc.js"></script>', want: ['https://cdn.example/redoc.js'] },
  ],
  [
    'preloaded module',
    { given: '<link rel="modulepreload" href="https://cdn.example/r.js" />', want: ['https://cdn.example/r.js'] },
  ],
  ['web font', { given: '<style>@import "https://fonts.example/css";</style>', want: ['https://fonts.example/css'] }],
  ['plain link to a page', { given: '<a href="https://redocly.com/redoc/">Redoc</a>', want: [] }],
];

async function build(api: string): Promise<string> {
  const out = path.join(await mkdtemp(path.join(tmpdir(), 'docs-')), 'index.html');
  const result = runNode([REDOCLY_CLI, 'build-docs', api, '--inlineBundle', '--output', out]);
  expect(result.status, result.stderr).toBe(0);
  return readFile(out, 'utf8');
}

describe('docs', () => {
  it.each(cases)('externalResources: %s', (_name, { given, want }) => {
    expect(externalResources(given)).toEqual(want);
  });

  it('builds the stand-in contract into a page that loads nothing from the network', async () => {
    expect(externalResources(await build(FIXTURE_SPEC))).toEqual([]);
  });

  it.runIf(existsSync(CONTRACT_SPEC))(
    'builds openapi.yaml (npm run docs) offline, with provenance badges',
    async () => {
      const html = await build('storefront-docs');
      expect(externalResources(html)).toEqual([]);
      expect(html).toMatch(/"x-badges":\[\{"name":"(Documented|Inferred)"/);
    },
  );
});
