import net, { type AddressInfo } from 'node:net';
import pino from 'pino';
import { createApp } from './app.ts';
import { banner, createDemoStoreIfEmpty, resolveAdminToken } from './bootstrap.ts';
import { ConfigError, loadConfig } from './config.ts';
import { connectStore } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { listen } from './listen.ts';

const SHUTDOWN_GRACE_MS = 10_000;
const DRAIN_MS = 500;

/** Start-up: configuration, store, migrations, first-run demo data, listening, graceful shutdown. */
async function main(): Promise<void> {
  const config = loadConfig();
  // Written asynchronously: under load the lines of several requests leave in one write instead of one
  // system call each; pino flushes what is buffered when the process exits. The destination has one write in
  // flight and starts the next when the event loop next turns, so a write must carry every line of a turn: at
  // most 2 KiB (nine lines) it fell behind at 50 connections, by 85% of the lines after 10 s, and took 38 s to
  // flush them at SIGTERM. 64 KiB carries the lines of about 280 requests. Not more: the destination appends
  // each line to its pending chunk and measures the chunk's bytes, which copies it, so a line costs about half
  // of what a turn has written before it.
  const logger = pino({ level: config.logLevel }, pino.destination({ dest: 1, sync: false, maxWrite: 65_536 }));
  const adminToken = resolveAdminToken(config.adminToken, config.dataDir);
  const store = await connectStore(config);
  const applied = await migrate(store, config.databaseSchema);
  logger.info({ engine: store.engine, migrations: applied }, 'store ready');

  const { app, repositories, worker, writeThread } = createApp({
    store,
    config: { ...config, adminToken: adminToken.value },
    logger,
  });
  // Listening first: a PORT or HOST that fails leaves no demo store behind whose key was never shown.
  const server = await listen(app, config, logger);
  const address = server.address() as AddressInfo;
  const demo = store.engine === 'sqlite' ? await createDemoStoreIfEmpty(repositories, config.dataDir) : undefined;
  const storeId = demo?.storeId ?? (await repositories.stores.oldest())?.id;
  // The log says where; the banner names where the secrets are kept, never the secrets.
  logger.info({ host: address.address, port: address.port }, 'listening');
  process.stdout.write(banner({ address, adminToken, engine: store.engine, demo, storeId, dataDir: config.dataDir }));
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
      await writeThread?.stop();
      await store.close();
      logger.info('stopped');
      process.exit(0);
    });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

// A configuration problem is the operator's to fix: its message (naming the variable), no stack, exit 1.
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
