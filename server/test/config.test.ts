import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Config, ConfigError, loadConfig } from '../src/config.ts';

const defaults: Config = {
  port: 3000,
  host: '127.0.0.1',
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  dataDir: path.resolve('.data'),
  databaseUrl: undefined,
  databaseSchema: undefined,
  adminToken: undefined,
  rateLimitMax: 600,
  rateLimitWindowSeconds: 60,
  logLevel: 'info',
  validateResponses: false,
  webhookRetrySchedule: [5, 300, 1800, 7200, 18_000, 36_000, 36_000],
  automationMinuteMs: 60_000,
  webhookAllowPrivateNetworks: false,
  authFailureLimit: 30,
};

/** The ConfigError loadConfig throws for this environment (fails the test when it does not throw one). */
function problemOf(env: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('loadConfig', () => {
  const valid: [string, { given: NodeJS.ProcessEnv; want: Partial<Config> }][] = [
    ['nothing set: the defaults', { given: {}, want: {} }],
    ['empty strings count as unset', { given: { PORT: '', LOG_LEVEL: '', DATABASE_URL: '' }, want: {} }],
    ['PORT', { given: { PORT: '8080' }, want: { port: 8080 } }],
    ['PORT 0 (any free port)', { given: { PORT: '0' }, want: { port: 0 } }],
    ['HOST every interface', { given: { HOST: '0.0.0.0' }, want: { host: '0.0.0.0' } }],
    ['HOST IPv6 loopback', { given: { HOST: '::1' }, want: { host: '::1' } }],
    ['HOST a name', { given: { HOST: 'localhost' }, want: { host: 'localhost' } }],
    [
      'the HTTP timeouts',
      {
        given: { HTTP_HEADERS_TIMEOUT_MS: '2000', HTTP_REQUEST_TIMEOUT_MS: '4000', HTTP_KEEP_ALIVE_TIMEOUT_MS: '1000' },
        want: { headersTimeoutMs: 2000, requestTimeoutMs: 4000, keepAliveTimeoutMs: 1000 },
      },
    ],
    [
      'a request deadline under 10 s also shortens the default header deadline',
      { given: { HTTP_REQUEST_TIMEOUT_MS: '3000' }, want: { headersTimeoutMs: 3000, requestTimeoutMs: 3000 } },
    ],
    ['DATA_DIR, resolved', { given: { DATA_DIR: 'var/data' }, want: { dataDir: path.resolve('var/data') } }],
    [
      'DATABASE_URL and DATABASE_SCHEMA',
      {
        given: { DATABASE_URL: 'postgresql://app:pw@db:5432/shop', DATABASE_SCHEMA: 'loja_1' },
        want: { databaseUrl: 'postgresql://app:pw@db:5432/shop', databaseSchema: 'loja_1' },
      },
    ],
    ['ADMIN_TOKEN', { given: { ADMIN_TOKEN: 'a'.repeat(16) }, want: { adminToken: 'a'.repeat(16) } }],
    [
      'the rate limit',
      {
        given: { RATE_LIMIT_MAX: '3', RATE_LIMIT_WINDOW_SECONDS: '2' },
        want: { rateLimitMax: 3, rateLimitWindowSeconds: 2 },
      },
    ],
    ['LOG_LEVEL', { given: { LOG_LEVEL: 'silent' }, want: { logLevel: 'silent' } }],
    ['VALIDATE_RESPONSES off', { given: { VALIDATE_RESPONSES: 'false' }, want: { validateResponses: false } }],
    ['VALIDATE_RESPONSES on', { given: { VALIDATE_RESPONSES: 'true' }, want: { validateResponses: true } }],
    ['NODE_ENV does not decide it', { given: { NODE_ENV: 'production' }, want: {} }],
    [
      'WEBHOOK_ALLOW_PRIVATE_NETWORKS',
      { given: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' }, want: { webhookAllowPrivateNetworks: true } },
    ],
    ['AUTH_FAILURE_LIMIT', { given: { AUTH_FAILURE_LIMIT: '5' }, want: { authFailureLimit: 5 } }],
  ];
  it.each(valid)('reads %s', (_name, { given, want }) => {
    expect(loadConfig(given)).toEqual({ ...defaults, ...want });
  });

  const invalid: [string, { given: NodeJS.ProcessEnv; want: string }][] = [
    ['PORT not a number', { given: { PORT: 'http' }, want: 'PORT' }],
    ['PORT above 65535', { given: { PORT: '70000' }, want: 'PORT' }],
    ['PORT negative', { given: { PORT: '-1' }, want: 'PORT' }],
    ['PORT not an integer', { given: { PORT: '80.5' }, want: 'PORT' }],
    ['HOST with a scheme', { given: { HOST: 'http://localhost' }, want: 'HOST' }],
    ['HOST with a port', { given: { HOST: '127.0.0.1:3000' }, want: 'HOST' }],
    ['HOST with a space', { given: { HOST: 'my host' }, want: 'HOST' }],
    ['HTTP_HEADERS_TIMEOUT_MS 0', { given: { HTTP_HEADERS_TIMEOUT_MS: '0' }, want: 'HTTP_HEADERS_TIMEOUT_MS' }],
    [
      'HTTP_REQUEST_TIMEOUT_MS not a number',
      { given: { HTTP_REQUEST_TIMEOUT_MS: '30s' }, want: 'HTTP_REQUEST_TIMEOUT_MS' },
    ],
    [
      'HTTP_KEEP_ALIVE_TIMEOUT_MS negative',
      { given: { HTTP_KEEP_ALIVE_TIMEOUT_MS: '-1' }, want: 'HTTP_KEEP_ALIVE_TIMEOUT_MS' },
    ],
    [
      'a header deadline past the request deadline',
      {
        given: { HTTP_HEADERS_TIMEOUT_MS: '20000', HTTP_REQUEST_TIMEOUT_MS: '10000' },
        want: 'HTTP_HEADERS_TIMEOUT_MS',
      },
    ],
    ['RATE_LIMIT_MAX 0', { given: { RATE_LIMIT_MAX: '0' }, want: 'RATE_LIMIT_MAX' }],
    ['VALIDATE_RESPONSES not a boolean', { given: { VALIDATE_RESPONSES: 'on' }, want: 'VALIDATE_RESPONSES' }],
    [
      'WEBHOOK_ALLOW_PRIVATE_NETWORKS not a boolean',
      { given: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'yes' }, want: 'WEBHOOK_ALLOW_PRIVATE_NETWORKS' },
    ],
    ['AUTH_FAILURE_LIMIT 0', { given: { AUTH_FAILURE_LIMIT: '0' }, want: 'AUTH_FAILURE_LIMIT' }],
    ['RATE_LIMIT_MAX not a number', { given: { RATE_LIMIT_MAX: 'many' }, want: 'RATE_LIMIT_MAX' }],
    ['RATE_LIMIT_WINDOW_SECONDS 0', { given: { RATE_LIMIT_WINDOW_SECONDS: '0' }, want: 'RATE_LIMIT_WINDOW_SECONDS' }],
    [
      'RATE_LIMIT_WINDOW_SECONDS above a day',
      { given: { RATE_LIMIT_WINDOW_SECONDS: '86401' }, want: 'RATE_LIMIT_WINDOW_SECONDS' },
    ],
    [
      'WEBHOOK_RETRY_SCHEDULE not seconds',
      { given: { WEBHOOK_RETRY_SCHEDULE: '5,1m' }, want: 'WEBHOOK_RETRY_SCHEDULE' },
    ],
    ['AUTOMATION_MINUTE_MS above a minute', { given: { AUTOMATION_MINUTE_MS: '60001' }, want: 'AUTOMATION_MINUTE_MS' }],
    ['LOG_LEVEL unknown', { given: { LOG_LEVEL: 'verbose' }, want: 'LOG_LEVEL' }],
    ['ADMIN_TOKEN shorter than 16', { given: { ADMIN_TOKEN: 'short' }, want: 'ADMIN_TOKEN' }],
    ['DATABASE_URL not postgres', { given: { DATABASE_URL: 'mysql://localhost/shop' }, want: 'DATABASE_URL' }],
    [
      'DATABASE_SCHEMA not a lowercase identifier',
      { given: { DATABASE_URL: 'postgres://localhost/shop', DATABASE_SCHEMA: 'Loja; DROP' }, want: 'DATABASE_SCHEMA' },
    ],
  ];
  it.each(invalid)('rejects %s with a one-line ConfigError naming the variable', (_name, { given, want }) => {
    const error = problemOf(given);
    expect(error.message).toMatch(new RegExp(`^Invalid configuration: [^\\n]*\\b${want}\\b[^\\n]*$`));
  });

  it('reports several bad variables together, one line each', () => {
    const error = problemOf({
      PORT: 'abc',
      RATE_LIMIT_MAX: '-5',
      LOG_LEVEL: 'loud',
      ADMIN_TOKEN: 'x',
      DATABASE_URL: 'sqlite://file.db',
    });
    const lines = error.message.split('\n').slice(1);
    expect(lines).toHaveLength(5);
    for (const name of ['PORT', 'RATE_LIMIT_MAX', 'LOG_LEVEL', 'ADMIN_TOKEN', 'DATABASE_URL']) {
      expect(lines.filter((line) => line.includes(name))).toHaveLength(1);
    }
  });

  it.each([
    ['a plain password', 'mysql://shop:hunter2secret@db.example.com/shop', 'hunter2secret'],
    ['a password with a slash', 'mysql://shop:hunter2/secret@db.example.com/shop', 'hunter2/secret'],
    ['a password with a colon', 'mysql://shop:hunter2:secret@db.example.com/shop', 'hunter2:secret'],
    ['a password with an at sign', 'mysql://shop:hunter2@secret@db.example.com/shop', 'secret'],
    ['no scheme at all', 'shop:hunter2secret@db.example.com', 'hunter2secret'],
  ])('never echoes the DATABASE_URL password (%s)', (_name, url, secret) => {
    const error = problemOf({ DATABASE_URL: url });
    expect(error.message).toContain('DATABASE_URL');
    expect(error.message).not.toContain(secret);
    expect(error.message).not.toContain('hunter2');
  });
});
