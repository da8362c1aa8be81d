// The README's "Use the client" snippet, taken from README.md as it stands and run as a partner would run it
// (Node, its TypeScript as written) against the reference server, with the package name pointing at client/src.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ServerTarget, STARTUP_MS, startServerProcess } from './targets.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The first ```js block of the README's "## Use the client" section. */
function readmeSnippet(): string {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const section = readme.split(/^## /m).find((part) => part.startsWith('Use the client\n'));
  const snippet = section?.match(/^```js\n([\s\S]*?)^```$/m)?.[1];
  if (!snippet) throw new Error('README.md has no ```js snippet under "## Use the client"');
  return snippet;
}

describe('the README snippet', () => {
  let server: ServerTarget;
  const work = mkdtempSync(path.join(tmpdir(), 'sf-client-readme-'));
  beforeAll(async () => {
    server = await startServerProcess();
  }, STARTUP_MS);
  afterAll(async () => {
    await server.stop();
    rmSync(work, { recursive: true, force: true });
  }, STARTUP_MS);

  it('runs against the server: creates, lists every product, and reports a 404 as StorefrontApiError', async () => {
    const snippet = readmeSnippet();
    expect(snippet).toContain("from 'storefront-api-client'");
    const file = path.join(work, 'snippet.mjs');
    const client = pathToFileURL(path.join(ROOT, 'client/src/index.ts')).href;
    writeFileSync(file, snippet.replace("from 'storefront-api-client'", `from '${client}'`));
    const partner = await server.newPartner();
    const { stdout } = await promisify(execFile)(process.execPath, [file], {
      env: {
        ...process.env,
        STOREFRONT_URL: partner.baseUrl,
        STOREFRONT_API_KEY: partner.apiKey,
        STOREFRONT_STORE_ID: partner.storeId,
      },
      timeout: 60_000,
    });
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(3);
    const [created, listed, missing] = lines;
    const id = created?.match(/^created ([0-9a-f-]{36})$/)?.[1];
    expect(id).toBeDefined();
    expect(listed).toBe('Caneca Esmaltada 39.9');
    expect(missing).toMatch(/^404 RESOURCE_NOT_FOUND \S/);

    const read = await fetch(`${partner.baseUrl}/api/v1/products/${id}`, {
      headers: { Authorization: `Bearer ${partner.apiKey}`, 'X-Store-Id': partner.storeId },
    });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ data: { product: { id, name: 'Caneca Esmaltada', price: 39.9 } } });
  });
});
