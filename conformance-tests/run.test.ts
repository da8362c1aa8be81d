// The command line: options from flags or the environment, usage errors (exit 2) with their reason, and the
// rate limit read from a RateLimit-Policy header.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRateLimitPolicy } from './lib/rate-limit.ts';
import { readOptions, UsageError } from './run.ts';

const base = ['--base-url', 'http://127.0.0.1:1'];

describe('readOptions', () => {
  const usageErrors: [string, { given: string[]; want: RegExp }][] = [
    ['no base url', { given: ['--admin-token', 't'], want: /--base-url .* is required/ }],
    ['no credentials against a server', { given: base, want: /credentials are needed/ }],
    ['a key without its store', { given: [...base, '--api-key', 'sf_live_x'], want: /credentials are needed/ }],
    ['an unknown flag', { given: [...base, '--admin-token', 't', '--bogus', '1'], want: /Unknown option '--bogus'/ }],
    ['an unknown profile', { given: [...base, '--profile', 'prism'], want: /--profile must be server or mock/ }],
    [
      'a rate limit that is not a number',
      {
        given: [...base, '--admin-token', 't', '--rate-limit-max', 'ten', '--rate-limit-window', '60'],
        want: /positive integer/,
      },
    ],
    [
      'a rate limit without its window',
      { given: [...base, '--admin-token', 't', '--rate-limit-max', '10'], want: /go together/ },
    ],
  ];
  it.each(usageErrors)('%s → a usage error', (_name, { given, want }) => {
    expect(() => readOptions(given, {})).toThrow(UsageError);
    expect(() => readOptions(given, {})).toThrow(want);
  });

  it('reads the environment when a flag is absent', () => {
    const options = readOptions([], {
      CONFORMANCE_BASE_URL: 'http://target',
      CONFORMANCE_API_KEY: 'sf_live_k',
      CONFORMANCE_STORE_ID: 's',
      CONFORMANCE_ONLY: 'createProduct,listProducts',
    });
    expect(options).toMatchObject({
      baseUrl: 'http://target',
      profile: 'server',
      apiKey: 'sf_live_k',
      storeId: 's',
      only: ['createProduct', 'listProducts'],
    });
    expect(options.rateLimitMax).toBeUndefined();
  });

  it('the mock needs no credentials', () => {
    expect(readOptions([...base, '--profile', 'mock'], {})).toMatchObject({ profile: 'mock' });
  });
});

describe('npm run conformance', () => {
  it('exits 2 with the reason and the usage line when credentials are missing', () => {
    const result = spawnSync(process.execPath, [path.join(import.meta.dirname, 'run.ts'), ...base], {
      encoding: 'utf8',
      env: { ...process.env, CONFORMANCE_ADMIN_TOKEN: '', CONFORMANCE_API_KEY: '' },
    });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^credentials are needed: .*\nusage: npm run conformance -- --base-url URL/);
    expect(result.stdout).toBe('');
  });

  it('prints the usage line on stdout and exits 0 for --help, whatever else is given', () => {
    const result = spawnSync(process.execPath, [path.join(import.meta.dirname, 'run.ts'), '--bogus', '--help'], {
      encoding: 'utf8',
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^usage: npm run conformance -- --base-url URL .*\nEvery option can also be set/);
    expect(result.stderr).toBe('');
  });
});

describe('parseRateLimitPolicy', () => {
  const cases: [string, { given: string | undefined; want: { max: number; windowSeconds: number } | undefined }][] = [
    ['structured (IETF draft)', { given: '"default";q=600;w=60', want: { max: 600, windowSeconds: 60 } }],
    ['the older form', { given: '100;w=10', want: { max: 100, windowSeconds: 10 } }],
    ['no window', { given: '"default";q=600', want: undefined }],
    ['no header', { given: undefined, want: undefined }],
  ];
  it.each(cases)('%s', (_name, { given, want }) => {
    expect(parseRateLimitPolicy(given)).toEqual(want);
  });
});
