import path from 'node:path';
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from './domain/retry-schedule.ts';

export interface Config {
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  databaseSchema: string | undefined;
  /** Undefined until start-up generates one (and prints it once). */
  adminToken: string | undefined;
  rateLimitMax: number;
  rateLimitWindowSeconds: number;
  logLevel: string;
  /** Responses are checked against the contract everywhere except production. */
  validateResponses: boolean;
  /** Seconds between webhook delivery attempts (WEBHOOK_RETRY_SCHEDULE; see domain/retry-schedule.ts). */
  webhookRetrySchedule: readonly number[];
  /** Real milliseconds a delay step's minute lasts (AUTOMATION_MINUTE_MS; tests shrink it). */
  automationMinuteMs: number;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
/** What db/database.ts accepts as a PostgreSQL schema name (it is spliced into `search_path`). */
const SQL_IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

/** Reads the configuration from the environment; every problem is reported at once, by variable name. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const attempt = <T>(read: () => T, fallback: T): T => {
    try {
      return read();
    } catch (error) {
      problems.push((error as Error).message);
      return fallback;
    }
  };
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    // Only the scheme is echoed: the rest may hold a password, in any of the shapes people write one.
    const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(databaseUrl)?.[1];
    problems.push(
      `DATABASE_URL must be a postgres:// connection string, got ${scheme ? `a ${scheme}:// URL` : 'no URL scheme'}`,
    );
  }
  const databaseSchema = env.DATABASE_SCHEMA || undefined;
  if (databaseSchema !== undefined && !SQL_IDENTIFIER.test(databaseSchema)) {
    problems.push(`DATABASE_SCHEMA must be a lowercase SQL identifier, got "${databaseSchema}"`);
  }
  const adminToken = env.ADMIN_TOKEN || undefined;
  if (adminToken !== undefined && adminToken.length < 16) problems.push('ADMIN_TOKEN must be at least 16 characters');
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel))
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  const retrySchedule = env.WEBHOOK_RETRY_SCHEDULE ? parseRetrySchedule(env.WEBHOOK_RETRY_SCHEDULE) : undefined;
  if (env.WEBHOOK_RETRY_SCHEDULE && !retrySchedule) {
    problems.push(
      `WEBHOOK_RETRY_SCHEDULE must be comma-separated seconds from 0 to 86400, got "${env.WEBHOOK_RETRY_SCHEDULE}"`,
    );
  }
  const config: Config = {
    port: attempt(() => integer(env, 'PORT', 3000, 0, 65535), 3000),
    dataDir: path.resolve(env.DATA_DIR || '.data'),
    databaseUrl,
    databaseSchema,
    adminToken,
    rateLimitMax: attempt(() => integer(env, 'RATE_LIMIT_MAX', 600, 1, 1_000_000), 600),
    rateLimitWindowSeconds: attempt(() => integer(env, 'RATE_LIMIT_WINDOW_SECONDS', 60, 1, 86_400), 60),
    logLevel,
    validateResponses: env.NODE_ENV !== 'production',
    webhookRetrySchedule: retrySchedule ?? DEFAULT_RETRY_SCHEDULE,
    automationMinuteMs: attempt(() => integer(env, 'AUTOMATION_MINUTE_MS', 60_000, 1, 60_000), 60_000),
  };
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  return config;
}
