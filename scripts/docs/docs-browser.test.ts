// The built reference (`npm run docs`) opened in a real browser, Debian's Chromium, with the network cut off:
// it renders, shows the provenance badges, a deep link lands on its operation, the search finds an operation by its
// operationId, and nothing logs an error.
// A screenshot is kept in reports/docs.png.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CONTRACT_SPEC, REDOCLY_CLI, ROOT, runNode } from '../test-helpers/run.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// The flags that let Chromium run headless in a container without reaching out to Google's services.
const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
// Redoc's footer ("API docs by Redocly") loads its logo from Redocly's CDN and hides it when that fails; it is
// the only request the page makes beyond its own file, and the only failure a reader offline would not notice.
const OPTIONAL_REMOTE = /^https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(-full)?\.svg$/;

/** `npm run docs`, with its output moved to `outDir`. */
function buildDocs(outDir: string): string {
  const script = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { docs: string } })
    .scripts.docs;
  const [command, ...args] = script.split(' ');
  expect(command).toBe('redocly');
  const output = path.join(outDir, 'index.html');
  const at = args.indexOf('--output');
  args.splice(at, 2, '--output', output);
  const result = runNode([REDOCLY_CLI, ...args]);
  expect(result.status, result.stderr).toBe(0);
  return output;
}

// Off CI a workstation without Chromium skips this file; CI installs it (.ci/run) and must run it.
const runnable = existsSync(CHROMIUM) || Boolean(process.env.CI);

describe.runIf(runnable)('docs in Chromium, offline', { timeout: 120_000 }, () => {
  const workDir = mkdtempSync(path.join(tmpdir(), 'docs-browser-'));
  const contract = parse(readFileSync(CONTRACT_SPEC, 'utf8')) as { info: { title: string } };
  let docsUrl: string;
  let context: Awaited<ReturnType<typeof chromium.launchPersistentContext>>;
  /** Every request that tried to leave file://, and every console error or uncaught exception. */
  const blocked: string[] = [];
  const errors: { text: string; url: string }[] = [];

  beforeAll(async () => {
    docsUrl = pathToFileURL(buildDocs(workDir)).href;
    context = await chromium.launchPersistentContext(path.join(workDir, 'profile'), {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_FLAGS,
      viewport: { width: 1280, height: 900 },
    });
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith('file:')) return route.continue();
      blocked.push(url);
      return route.abort('internetdisconnected');
    });
    context.on('console', (message) => {
      if (message.type() === 'error') errors.push({ text: message.text(), url: message.location().url });
    });
    context.on('weberror', (error) => errors.push({ text: String(error.error()), url: '' }));
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    rmSync(workDir, { recursive: true, force: true });
  });

  it('renders the contract title, the Getting started section and the provenance badges', async () => {
    const page = await context.newPage();
    await page.goto(docsUrl);
    expect(await page.title()).toBe(contract.info.title);
    const sidebar = page.locator('[data-component-name="Menu/MenuItem"]');
    await expect.poll(() => sidebar.count()).toBeGreaterThan(0);
    await page.getByText('Getting started', { exact: true }).first().click();
    await page.getByText('verifyWebhook(body, headers, secret)').first().waitFor();
    // Opening a tag in the sidebar lists its operations, each with its badge: Products has both kinds.
    await page.getByText('Products', { exact: true }).first().click();
    const badge = (name: string) => sidebar.getByText(name, { exact: true });
    await expect.poll(() => badge('Documented').count()).toBeGreaterThan(0);
    await expect.poll(() => badge('Inferred').count()).toBeGreaterThan(0);
    await page.close();
  });

  it('opens an operation from its deep link, badge and all, and keeps a screenshot', async () => {
    const page = await context.newPage();
    await page.goto(`${docsUrl}#/products/createproduct`);
    const heading = page.getByRole('heading', { name: /Create a product$/ });
    await heading.waitFor();
    expect(await heading.isVisible()).toBe(true);
    expect(await heading.textContent()).toBe('DocumentedCreate a product');
    await page.getByText('/api/v1/products', { exact: true }).first().waitFor();
    mkdirSync(path.join(ROOT, 'reports'), { recursive: true });
    await page.screenshot({ path: path.join(ROOT, 'reports/docs.png') });
    await page.close();
  });

  it('finds an operation by its operationId in the search, as the README and the conformance report name it', async () => {
    const page = await context.newPage();
    await page.goto(docsUrl);
    await page.locator('[data-component-name="icons/SearchIcon/SearchIcon"]').first().click();
    await page.keyboard.type('createProduct');
    // The one result: the operation, its path and the id it was found by.
    const found = page.getByText(/Operation id: createProduct$/);
    await found.waitFor();
    expect(await found.count()).toBe(1);
    expect(await page.getByText('/api/v1/products', { exact: true }).count()).toBeGreaterThan(0);
    await page.close();
  });

  it('shows a webhook delivery signed, not authorized with an API key', async () => {
    const page = await context.newPage();
    await page.goto(`${docsUrl}#/webhook-events/orderpaidwebhook`);
    const delivery = page.locator('[data-section-id="/webhook-events/orderpaidwebhook"]');
    await delivery.getByText('webhook-signature', { exact: true }).first().waitFor();
    expect(await delivery.getByText(/ApiKeyAuth/).count()).toBe(0);
    await page.close();
  });

  it('logged no error and asked the network for nothing but the optional footer logo', () => {
    expect(blocked.filter((url) => !OPTIONAL_REMOTE.test(url))).toEqual([]);
    expect(errors.filter((error) => !OPTIONAL_REMOTE.test(error.url))).toEqual([]);
  });
});
