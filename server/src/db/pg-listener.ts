import pg from 'pg';

/** How long a listener waits before connecting again after its connection is lost or refused. */
const RECONNECT_MS = 1_000;

export interface ListenHandlers {
  /** A notification on the channel, with its payload. */
  notified(payload: string): void;
  /**
   * Whether notifications are being heard: called with `true` once LISTEN holds, with `false` when the connection
   * is lost (notifications sent meanwhile are missed), and `closed` when the listener stops for good.
   */
  hearing(heard: boolean): void;
  closed(): void;
}

export interface Listener {
  close(): Promise<void>;
}

/**
 * A connection of its own that LISTENs on `channel` (NOTIFY is delivered only to a session that listens, so it
 * cannot share the pool), connecting again after a loss until closed.
 */
export function listenOn(connectionString: string, channel: string, handlers: ListenHandlers): Listener {
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const again = () => {
    if (closed) return;
    retry = setTimeout(connect, RECONNECT_MS);
    retry.unref();
  };
  const connect = async () => {
    const next = new pg.Client({ connectionString });
    next.on('notification', (message) => {
      if (message.channel === channel) handlers.notified(message.payload ?? '');
    });
    // An error is followed by 'end'; without a listener it would be thrown.
    next.on('error', () => {});
    next.on('end', () => {
      if (client !== next) return;
      client = undefined;
      handlers.hearing(false);
      again();
    });
    try {
      await next.connect();
      await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    } catch {
      await next.end().catch(() => {});
      again();
      return;
    }
    if (closed) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
    handlers.hearing(true);
  };
  void connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      const current = client;
      client = undefined;
      handlers.closed();
      await current?.end().catch(() => {});
    },
  };
}
