// `npm run conformance -- --base-url URL [--api-key KEY --store-id UUID] [--admin-token T] [--profile server|mock]
//   [--rate-limit-max N --rate-limit-window S] [--only op1,op2] [--reports DIR]
//   [--known-failures FILE]`
// Every option can also be given as an environment variable: CONFORMANCE_BASE_URL, CONFORMANCE_API_KEY,
// CONFORMANCE_STORE_ID, CONFORMANCE_ADMIN_TOKEN, CONFORMANCE_PROFILE, CONFORMANCE_RATE_LIMIT_MAX,
// CONFORMANCE_RATE_LIMIT_WINDOW, CONFORMANCE_ONLY, CONFORMANCE_REPORTS, CONFORMANCE_UNSERVED_AS_SKIP,
// CONFORMANCE_KNOWN_FAILURES.
// Exit code 0 when nothing failed, 1 when a check failed, 2 on a usage error.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { counts, summary, writeReports } from './lib/report.ts';
import type { Options, Profile } from './lib/session.ts';
import { runSuite } from './lib/suite.ts';

export function readOptions(argv: string[], env: NodeJS.ProcessEnv): Options & { reports: string } {
  const { values } = parseArgs({
    args: argv,
    options: {
      'base-url': { type: 'string' },
      'api-key': { type: 'string' },
      'store-id': { type: 'string' },
      'admin-token': { type: 'string' },
      profile: { type: 'string' },
      'rate-limit-max': { type: 'string' },
      'rate-limit-window': { type: 'string' },
      only: { type: 'string' },
      reports: { type: 'string' },
      'known-failures': { type: 'string' },
    },
  });
  const get = (flag: keyof typeof values, name: string) =>
    (values[flag] as string | undefined) ?? (env[`CONFORMANCE_${name}`] || undefined);
  const baseUrl = get('base-url', 'BASE_URL');
  if (!baseUrl) throw new Error('--base-url (or CONFORMANCE_BASE_URL) is required');
  const profile = (get('profile', 'PROFILE') ?? 'server') as Profile;
  if (profile !== 'server' && profile !== 'mock') throw new Error(`--profile must be server or mock, got ${profile}`);
  const int = (text: string | undefined) => (text === undefined ? undefined : Number.parseInt(text, 10));
  const only = get('only', 'ONLY');
  const knownFile = get('known-failures', 'KNOWN_FAILURES');
  const knownFailures = knownFile
    ? (JSON.parse(readFileSync(knownFile, 'utf8')) as { failures: string[] }).failures
    : undefined;
  return {
    baseUrl,
    apiKey: get('api-key', 'API_KEY'),
    storeId: get('store-id', 'STORE_ID'),
    adminToken: get('admin-token', 'ADMIN_TOKEN'),
    profile,
    rateLimitMax: int(get('rate-limit-max', 'RATE_LIMIT_MAX')),
    rateLimitWindowSeconds: int(get('rate-limit-window', 'RATE_LIMIT_WINDOW')),
    reports: path.resolve(get('reports', 'REPORTS') ?? 'reports'),
    ...(only ? { only: only.split(',') } : {}),
    ...(knownFailures ? { knownFailures } : {}),
  };
}

async function main(): Promise<number> {
  let options: ReturnType<typeof readOptions>;
  try {
    options = readOptions(process.argv.slice(2), process.env);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    return 2;
  }
  const session = await runSuite(options);
  const files = writeReports(session, options.reports);
  process.stdout.write(`${summary(session)}\nreports: ${files.summary}, ${files.junit}\n`);
  return counts(session).fail > 0 ? 1 : 0;
}

if (import.meta.main) process.exitCode = await main();
