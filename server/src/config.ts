import path from 'node:path';

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
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

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
    problems.push(
      `DATABASE_URL must be a postgres:// connection string, got "${databaseUrl.replace(/:[^:@/]*@/, ':***@')}"`,
    );
  }
  const adminToken = env.ADMIN_TOKEN || undefined;
  if (adminToken !== undefined && adminToken.length < 16) problems.push('ADMIN_TOKEN must be at least 16 characters');
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel))
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  const config: Config = {
    port: attempt(() => integer(env, 'PORT', 3000, 0, 65535), 3000),
    dataDir: path.resolve(env.DATA_DIR || '.data'),
    databaseUrl,
    databaseSchema: env.DATABASE_SCHEMA || undefined,
    adminToken,
    rateLimitMax: attempt(() => integer(env, 'RATE_LIMIT_MAX', 600, 1, 1_000_000), 600),
    rateLimitWindowSeconds: attempt(() => integer(env, 'RATE_LIMIT_WINDOW_SECONDS', 60, 1, 86_400), 60),
    logLevel,
    validateResponses: env.NODE_ENV !== 'production',
  };
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  return config;
}
