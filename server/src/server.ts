import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { createApp } from './app.ts';
import { banner, createDemoStoreIfEmpty, generateAdminToken } from './bootstrap.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openStore } from './db/database.ts';
import { migrate } from './db/migrate.ts';

const SHUTDOWN_GRACE_MS = 10_000;

/** Start-up: configuration, store, migrations, first-run demo data, listening, graceful shutdown. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = pino({ level: config.logLevel });
  const store = openStore(config);
  const applied = await migrate(store, config.databaseSchema);
  logger.info({ engine: store.engine, migrations: applied }, 'store ready');

  const generatedToken = config.adminToken ? undefined : generateAdminToken();
  const adminToken = config.adminToken ?? (generatedToken as string);
  const { app, repositories, events } = createApp({ store, config: { ...config, adminToken }, logger });
  const demo = store.engine === 'sqlite' ? await createDemoStoreIfEmpty(repositories) : undefined;

  const server = app.listen(config.port, '0.0.0.0', () => {
    const { port } = server.address() as AddressInfo;
    process.stdout.write(banner(port, generatedToken, demo));
  });
  server.on('error', (error) => {
    logger.fatal({ err: error }, 'cannot listen');
    process.exit(1);
  });

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => {
      logger.error('in-flight requests did not finish in time; closing connections');
      server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    force.unref();
    server.close(async () => {
      await events.settled();
      await store.close();
      logger.info('stopped');
      process.exit(0);
    });
    server.closeIdleConnections();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      `Start-up failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
  }
  process.exit(1);
});
