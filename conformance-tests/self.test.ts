// Tests of the suite itself: a rule broken on purpose in front of a real server (a proxy rewriting one
// response) must make the suite fail with a message naming the operation, the rule and the response.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Result } from './lib/outcome.ts';
import { runSuite } from './lib/suite.ts';
import { breakingProxy, RATE_LIMIT, startServer, type Target } from './test-helpers/targets.ts';

let server: Target;
beforeAll(async () => {
  server = await startServer('sqlite');
}, 90_000);
afterAll(async () => {
  await server?.stop();
}, 30_000);

async function runBroken(
  only: string[],
  rule: Parameters<typeof breakingProxy>[1],
): Promise<{ failures: Result[]; hits: number }> {
  const proxy = await breakingProxy(server.url, rule);
  try {
    const session = await runSuite({
      baseUrl: proxy.url,
      adminToken: server.adminToken as string,
      rateLimitMax: RATE_LIMIT.max,
      rateLimitWindowSeconds: RATE_LIMIT.windowSeconds,
      only,
      concurrency: 4,
    });
    return { failures: session.results.filter((r) => r.outcome === 'fail'), hits: proxy.hits() };
  } finally {
    await proxy.close();
  }
}

describe('the suite catches a broken rule', () => {
  it('200 instead of 201 on product create', { timeout: 120_000 }, async () => {
    const { failures, hits } = await runBroken(['createProduct'], {
      matches: (method, url) => method === 'POST' && url.startsWith('/api/v1/products'),
      rewrite: (r) => (r.status === 201 ? { status: 200, body: r.body } : r),
    });
    expect(hits).toBeGreaterThan(0);
    const valid = failures.find((f) => f.rule === 'valid request → 2xx');
    expect(valid?.message).toMatch(
      /^createProduct — valid request → 2xx: .*status 200 is not documented for createProduct/,
    );
    expect(valid?.exchange).toMatch(/> POST http:\/\/127\.0\.0\.1:\d+\/api\/v1\/products/);
    expect(valid?.exchange).toMatch(/^< 200$/m);
    expect(failures.some((f) => f.operationId === 'createProduct' && f.rule.startsWith('create then read back'))).toBe(
      true,
    );
  });

  it('the webhook secret returned by the read', { timeout: 120_000 }, async () => {
    const { failures, hits } = await runBroken(['createWebhook', 'getWebhookById'], {
      matches: (method, url) => method === 'GET' && /^\/api\/v1\/webhooks\/[0-9a-f-]{36}$/.test(url),
      rewrite: (r) =>
        r.status === 200
          ? { status: 200, body: r.body.replace('"hasSecret":', '"secret":"whsec_leaked","hasSecret":') }
          : r,
    });
    expect(hits).toBeGreaterThan(0);
    const schema = failures.find((f) => f.operationId === 'getWebhookById' && f.rule === 'valid request → 2xx');
    expect(schema?.message).toMatch(
      /getWebhookById — valid request → 2xx: the response breaks the contract: the body does not match the 200 schema: .*"secret"/,
    );
    expect(schema?.exchange).toContain('whsec_leaked');
    const behaviour = failures.find((f) => f.rule.startsWith('the webhook secret is never returned'));
    expect(behaviour?.message).toMatch(
      /getWebhookById — (the secret is never returned|the response returns the webhook secret)/,
    );
  });

  it('meta.status different from the HTTP status on a 404', { timeout: 120_000 }, async () => {
    const { failures } = await runBroken(['getCategoryById'], {
      matches: (method, url) => method === 'GET' && url.startsWith('/api/v1/categories/'),
      rewrite: (r) => (r.status === 404 ? { status: 404, body: r.body.replace('"status":404', '"status":400') } : r),
    });
    const notFound = failures.find((f) => f.rule === 'unknown categoryId → 404');
    expect(notFound?.message).toMatch(
      /getCategoryById — unknown categoryId → 404: .*meta\.status is 400, the HTTP status is 404/,
    );
  });

  it('passes when nothing is broken', { timeout: 120_000 }, async () => {
    const { failures } = await runBroken(['createProduct', 'getWebhookById', 'getCategoryById'], {
      matches: () => false,
      rewrite: (r) => r,
    });
    expect(failures).toEqual([]);
  });
});

describe('the first hour', () => {
  it('tells its progress per operation as it goes, and finds the rate limit itself', { timeout: 120_000 }, async () => {
    const lines: string[] = [];
    const session = await runSuite({
      baseUrl: server.url,
      adminToken: server.adminToken as string,
      only: ['getCategoryById', 'listCategories'],
      concurrency: 1,
      progress: (line) => lines.push(line),
    });
    expect(lines[0]).toBe(
      `rate limit of the target (RateLimit-Policy): ${RATE_LIMIT.max} per ${RATE_LIMIT.windowSeconds} s`,
    );
    expect(
      lines.filter((line) => /^\[ {2}\d\/2\] (getCategoryById|listCategories) +\d+ passed, 0 failed/.test(line)),
    ).toHaveLength(2);
    const limited = session.results.filter((r) => r.rule === 'rate limit → 429');
    expect(limited.map((r) => `${r.operationId} ${r.outcome}`).sort()).toEqual([
      'getCategoryById pass',
      'listCategories pass',
    ]);
  });

  it('a wrong admin token stops the set-up with the failing call, its status and body', {
    timeout: 60_000,
  }, async () => {
    const session = await runSuite({ baseUrl: server.url, adminToken: 'wrong-admin-token-0000' });
    expect(session.results).toHaveLength(1);
    const [setUp] = session.results;
    expect(setUp).toMatchObject({ operationId: '*', rule: 'set-up', outcome: 'fail' });
    expect(setUp?.message).toMatch(/^set-up through createStore failed: HTTP 401 AUTH_ADMIN_TOKEN_REQUIRED: /);
    expect(setUp?.exchange).toMatch(/^< 401$/m);
    expect(setUp?.exchange).toContain('"code":"AUTH_ADMIN_TOKEN_REQUIRED"');
  });
});
