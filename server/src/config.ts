import { isIP } from 'node:net';
import path from 'node:path';
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from './domain/retry-schedule.ts';
import { FAILED_AUTH_LIMIT_DEFAULT } from './http/failed-auth-throttle.ts';
import { RATE_LIMIT_DEFAULT } from './http/rate-limiter.ts';

/** DATA_DIR when unset, relative to the directory the server starts in (the project's, under npm). */
export const DEFAULT_DATA_DIR = '.data';

export interface Config {
  port: number;
  /** Address to bind (HOST): 127.0.0.1 keeps the sandbox on this machine; 0.0.0.0 opens it to the network. */
  host: string;
  /** Time a client has to send a request's headers (HTTP_HEADERS_TIMEOUT_MS); a slow sender is cut off. */
  headersTimeoutMs: number;
  /** Time a client has to send a whole request, body included (HTTP_REQUEST_TIMEOUT_MS). */
  requestTimeoutMs: number;
  /** How long an idle kept-alive connection stays open between requests (HTTP_KEEP_ALIVE_TIMEOUT_MS). */
  keepAliveTimeoutMs: number;
  dataDir: string;
  databaseUrl: string | undefined;
  databaseSchema: string | undefined;
  /** ADMIN_TOKEN; when unset, start-up keeps a generated one in DATA_DIR (see bootstrap.ts). */
  adminToken: string | undefined;
  rateLimitMax: number;
  rateLimitWindowSeconds: number;
  logLevel: string;
  /** Every response is checked against the contract before it is sent, a breach answering 500 (VALIDATE_RESPONSES). */
  validateResponses: boolean;
  /** Seconds between webhook delivery attempts (WEBHOOK_RETRY_SCHEDULE; see domain/retry-schedule.ts). */
  webhookRetrySchedule: readonly number[];
  /** Real milliseconds a delay step's minute lasts (AUTOMATION_MINUTE_MS; tests shrink it). */
  automationMinuteMs: number;
  /** Webhooks may target loopback and private networks (WEBHOOK_ALLOW_PRIVATE_NETWORKS; local development, tests). */
  webhookAllowPrivateNetworks: boolean;
  /** Failed authentications per client address in the contract's window before 429 (AUTH_FAILURE_LIMIT). */
  authFailureLimit: number;
}

/** See the README (Configuration, Performance) for why the sandbox runs with this default. */
const VALIDATE_RESPONSES_DEFAULT = false;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
// A DNS name (RFC 1123 labels); IP addresses are checked with net.isIP.
const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/i;
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

function flag(env: NodeJS.ProcessEnv, name: string, fallback = false): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'false') return false;
  if (raw === 'true') return true;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

/** Reads the configuration from the environment; every problem is reported at once, one line each, by variable name. */
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
  const host = env.HOST || '127.0.0.1';
  if (isIP(host) === 0 && !HOST_NAME.test(host)) {
    problems.push(
      `HOST must be an IP address or a host name (127.0.0.1: this machine only; 0.0.0.0: every interface), got "${host}"`,
    );
  }
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel))
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  const requestTimeoutMs = attempt(() => integer(env, 'HTTP_REQUEST_TIMEOUT_MS', 30_000, 1, 3_600_000), 30_000);
  // The header deadline defaults to 10 s, or the request's when that is shorter (Node refuses it longer).
  const headersFallback = Math.min(10_000, requestTimeoutMs);
  const retrySchedule = env.WEBHOOK_RETRY_SCHEDULE ? parseRetrySchedule(env.WEBHOOK_RETRY_SCHEDULE) : undefined;
  if (env.WEBHOOK_RETRY_SCHEDULE && !retrySchedule) {
    problems.push(
      `WEBHOOK_RETRY_SCHEDULE must be comma-separated seconds from 0 to 86400, got "${env.WEBHOOK_RETRY_SCHEDULE}"`,
    );
  }
  const { max: rateMax, windowSeconds: rateWindow } = RATE_LIMIT_DEFAULT;
  const config: Config = {
    port: attempt(() => integer(env, 'PORT', 3000, 0, 65535), 3000),
    host,
    headersTimeoutMs: attempt(
      () => integer(env, 'HTTP_HEADERS_TIMEOUT_MS', headersFallback, 1, 600_000),
      headersFallback,
    ),
    requestTimeoutMs,
    keepAliveTimeoutMs: attempt(() => integer(env, 'HTTP_KEEP_ALIVE_TIMEOUT_MS', 5_000, 1, 600_000), 5_000),
    dataDir: path.resolve(env.DATA_DIR || DEFAULT_DATA_DIR),
    databaseUrl,
    databaseSchema,
    adminToken,
    rateLimitMax: attempt(() => integer(env, 'RATE_LIMIT_MAX', rateMax, 1, 1_000_000), rateMax),
    rateLimitWindowSeconds: attempt(() => integer(env, 'RATE_LIMIT_WINDOW_SECONDS', rateWindow, 1, 86_400), rateWindow),
    logLevel,
    validateResponses: attempt(
      () => flag(env, 'VALIDATE_RESPONSES', VALIDATE_RESPONSES_DEFAULT),
      VALIDATE_RESPONSES_DEFAULT,
    ),
    webhookRetrySchedule: retrySchedule ?? DEFAULT_RETRY_SCHEDULE,
    automationMinuteMs: attempt(() => integer(env, 'AUTOMATION_MINUTE_MS', 60_000, 1, 60_000), 60_000),
    webhookAllowPrivateNetworks: attempt(() => flag(env, 'WEBHOOK_ALLOW_PRIVATE_NETWORKS'), false),
    authFailureLimit: attempt(
      () => integer(env, 'AUTH_FAILURE_LIMIT', FAILED_AUTH_LIMIT_DEFAULT, 1, 1_000_000),
      FAILED_AUTH_LIMIT_DEFAULT,
    ),
  };
  if (config.headersTimeoutMs > config.requestTimeoutMs) {
    problems.push(
      `HTTP_HEADERS_TIMEOUT_MS (${config.headersTimeoutMs}) must not exceed HTTP_REQUEST_TIMEOUT_MS (${config.requestTimeoutMs})`,
    );
  }
  if (problems.length === 1) throw new ConfigError(`Invalid configuration: ${problems[0]}`);
  if (problems.length > 1) throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  return config;
}
