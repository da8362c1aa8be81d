import { createServer, type RequestListener, type Server } from 'node:http';
import type { Logger } from 'pino';
import type { Config } from './config.ts';
import { ConfigError } from './config.ts';
import { answerClientErrors } from './http/client-errors.ts';

/** How often Node looks for connections past their header/request deadline (its default is 30 s). */
const DEADLINE_CHECK_MS = 1_000;

/**
 * Listens on HOST:PORT with the configured deadlines: a client that sends its headers or its request too slowly
 * is answered 408 and closed, an idle kept-alive connection is closed after HTTP_KEEP_ALIVE_TIMEOUT_MS; what
 * Node answers before the app sees a request is in the error envelope too (client-errors.ts). A port or address
 * that cannot be taken is a ConfigError naming PORT or HOST.
 */
export async function listen(handler: RequestListener, config: Config, logger: Logger): Promise<Server> {
  const server = createServer(
    {
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      keepAliveTimeout: config.keepAliveTimeoutMs,
      connectionsCheckingInterval: DEADLINE_CHECK_MS,
      // The app answers a missing Host itself, in the envelope (client-errors.ts › readRequestTarget).
      requireHostHeader: false,
    },
    handler,
  );
  answerClientErrors(server, handler, logger);
  await new Promise<void>((resolve, reject) => {
    const failed = (error: Error) => reject(listenError(error, config));
    server.once('error', failed);
    server.listen(config.port, config.host, () => {
      server.off('error', failed);
      resolve();
    });
  });
  return server;
}

/** The system's code stays in the message, for whoever searches for it. */
function listenError(error: Error, { host, port }: Config): Error {
  const code = (error as { code?: unknown }).code;
  switch (code) {
    case 'EADDRINUSE':
      return new ConfigError(
        `PORT ${port} is already in use on ${host} (${code}): stop what holds it, or set PORT to a free one`,
      );
    case 'EACCES':
      return new ConfigError(`PORT ${port} needs privileges on ${host} (${code}): set PORT above 1023`);
    case 'EADDRNOTAVAIL':
      return new ConfigError(
        `HOST ${host} is not an address of this machine (${code}): use 127.0.0.1 (this machine), 0.0.0.0 (every interface) or one of its own`,
      );
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new ConfigError(
        `HOST ${host} does not resolve to an address (${code}): use an IP address or a known host name`,
      );
    default:
      return error;
  }
}
