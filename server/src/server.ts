import type { Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import pino from 'pino';
import { createApp } from './app.ts';
import { banner, createDemoStoreIfEmpty, generateAdminToken } from './bootstrap.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openStore } from './db/database.ts';
import { migrate } from './db/migrate.ts';

const SHUTDOWN_GRACE_MS = 10_000;
const DRAIN_MS = 500;

/** Start-up: configuration, store, migrations, first-run demo data, listening, graceful shutdown. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = pino({ level: config.logLevel });
  const store = openStore(config);
  const applied = await migrate(store, config.databaseSchema);
  logger.info({ engine: store.engine, migrations: applied }, 'store ready');

  const generatedToken = config.adminToken ? undefined : generateAdminToken();
  const adminToken = config.adminToken ?? (generatedToken as string);
  const { app, repositories, worker } = createApp({ store, config: { ...config, adminToken }, logger });
  const demo = store.engine === 'sqlite' ? await createDemoStoreIfEmpty(repositories) : undefined;

  // Express 5 calls back with the error when the port cannot be taken (busy, no permission): start-up fails.
  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(config.port, '0.0.0.0', (error?: Error) =>
      error ? reject(error) : resolve(listening),
    );
  });
  const { port } = server.address() as AddressInfo;
  process.stdout.write(banner(port, generatedToken, demo));
  worker.start();

  // Shutdown: stop accepting connections, but serve the requests of connections already accepted (answering
  // them with `Connection: close`), sweep idle sockets once the drain period is over, then close the store.
  let stopping = false;
  server.on('request', (_req, res) => {
    if (stopping) res.setHeader('Connection', 'close');
  });
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    const sweep = setInterval(() => server.closeIdleConnections(), DRAIN_MS);
    const force = setTimeout(() => {
      logger.error('in-flight requests did not finish in time; closing connections');
      server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS);
    sweep.unref();
    force.unref();
    // The delivery worker stops claiming at once; attempts in flight get the grace, the rest stays stored.
    const worked = worker.stop(SHUTDOWN_GRACE_MS);
    // net.Server#close, not http.Server#close: the latter would also drop sockets whose request is still arriving.
    net.Server.prototype.close.call(server, async () => {
      await worked;
      await store.close();
      logger.info('stopped');
      process.exit(0);
    });
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
