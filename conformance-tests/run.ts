// `npm run conformance -- --base-url URL [--api-key KEY --store-id UUID] [--admin-token T] [--profile server|mock]
//   [--rate-limit-max N --rate-limit-window S] [--only op1,op2] [--reports DIR] [--known-failures FILE]`
// Every option can also be given as an environment variable: CONFORMANCE_BASE_URL, CONFORMANCE_API_KEY,
// CONFORMANCE_STORE_ID, CONFORMANCE_ADMIN_TOKEN, CONFORMANCE_PROFILE, CONFORMANCE_RATE_LIMIT_MAX,
// CONFORMANCE_RATE_LIMIT_WINDOW, CONFORMANCE_ONLY, CONFORMANCE_REPORTS, CONFORMANCE_KNOWN_FAILURES.
// Progress goes to stderr as each operation ends; the summary to stdout at the end.
// Exit code 0 when nothing failed, 1 when a check (or the set-up) failed, 2 on a usage error; `--help` prints
// the usage line.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Options, Profile } from './lib/options.ts';
import { counts, summary, writeReports } from './lib/report.ts';
import { runSuite } from './lib/suite.ts';

/** A mistake in how the suite was called: exit 2 with the message and the usage line. */
export class UsageError extends Error {}

const USAGE =
  'usage: npm run conformance -- --base-url URL (--admin-token TOKEN | --api-key KEY --store-id UUID | --profile mock) ' +
  '[--rate-limit-max N --rate-limit-window SECONDS] [--only op1,op2] [--reports DIR] [--known-failures FILE]';

const FLAGS = {
  'base-url': 'BASE_URL',
  'api-key': 'API_KEY',
  'store-id': 'STORE_ID',
  'admin-token': 'ADMIN_TOKEN',
  profile: 'PROFILE',
  'rate-limit-max': 'RATE_LIMIT_MAX',
  'rate-limit-window': 'RATE_LIMIT_WINDOW',
  only: 'ONLY',
  reports: 'REPORTS',
  'known-failures': 'KNOWN_FAILURES',
} as const;
type Flag = keyof typeof FLAGS;

function positive(flag: Flag, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) throw new UsageError(`--${flag} must be a positive integer, got ${text}`);
  return value;
}

function knownFailuresFrom(file: string | undefined): string[] | undefined {
  if (!file) return undefined;
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { failures: string[] }).failures;
  } catch (error) {
    throw new UsageError(`--known-failures ${file}: ${(error as Error).message}`);
  }
}

export function readOptions(argv: string[], env: NodeJS.ProcessEnv): Options & { reports: string } {
  let values: Partial<Record<Flag, string>>;
  try {
    const options = Object.fromEntries(Object.keys(FLAGS).map((flag) => [flag, { type: 'string' as const }]));
    values = parseArgs({ args: argv, options }).values as Partial<Record<Flag, string>>;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const get = (flag: Flag) => values[flag] ?? (env[`CONFORMANCE_${FLAGS[flag]}`] || undefined);
  const baseUrl = get('base-url');
  if (!baseUrl) throw new UsageError('--base-url (or CONFORMANCE_BASE_URL) is required');
  const profile = (get('profile') ?? 'server') as Profile;
  if (profile !== 'server' && profile !== 'mock')
    throw new UsageError(`--profile must be server or mock, got ${profile}`);
  const apiKey = get('api-key');
  const storeId = get('store-id');
  const adminToken = get('admin-token');
  if (profile === 'server' && !adminToken && !(apiKey && storeId)) {
    throw new UsageError('credentials are needed: --admin-token, or --api-key with its --store-id');
  }
  const rateLimitMax = positive('rate-limit-max', get('rate-limit-max'));
  const rateLimitWindowSeconds = positive('rate-limit-window', get('rate-limit-window'));
  if ((rateLimitMax === undefined) !== (rateLimitWindowSeconds === undefined)) {
    throw new UsageError('--rate-limit-max and --rate-limit-window go together');
  }
  const only = get('only');
  const knownFailures = knownFailuresFrom(get('known-failures'));
  return {
    baseUrl,
    profile,
    ...(apiKey ? { apiKey } : {}),
    ...(storeId ? { storeId } : {}),
    ...(adminToken ? { adminToken } : {}),
    ...(rateLimitMax && rateLimitWindowSeconds ? { rateLimitMax, rateLimitWindowSeconds } : {}),
    reports: path.resolve(get('reports') ?? 'reports'),
    ...(only ? { only: only.split(',') } : {}),
    ...(knownFailures ? { knownFailures } : {}),
  };
}

/** `--help` or `-h` anywhere: the usage line and where the rest is explained, on stdout, exit 0. */
const HELP = `${USAGE}
Every option can also be set as CONFORMANCE_<OPTION> (e.g. CONFORMANCE_BASE_URL); see conformance-tests/README.md.
`;

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(HELP);
    return 0;
  }
  let options: ReturnType<typeof readOptions>;
  try {
    options = readOptions(argv, process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`${error.message}\n${USAGE}\n`);
    return 2;
  }
  const session = await runSuite({ ...options, progress: (line) => process.stderr.write(`${line}\n`) });
  const files = writeReports(session, options.reports);
  process.stdout.write(`${summary(session)}\nreports: ${files.summary}, ${files.junit}\n`);
  return counts(session).fail > 0 ? 1 : 0;
}

if (import.meta.main) process.exitCode = await main();
