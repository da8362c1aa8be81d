import { type Kysely, sql } from 'kysely';
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
  /** Hears `channel` from now on (LISTEN on the connection, now or as soon as it is up). */
  listen(channel: string, handlers: ListenHandlers): void;
  close(): Promise<void>;
}

/**
 * Announces `payload` on `channel` to the instances working in the same schema as `db` (other schemas of the
 * database are other deployments): the payload leaves prefixed with the schema, which `pgListener` reads off.
 */
export async function announce<DB>(db: Kysely<DB>, channel: string, payload: string): Promise<void> {
  await sql`SELECT pg_notify(${channel}, current_schema() || ' ' || ${payload}::text)`.execute(db);
}

/** The payload `announce` sent from `schema`, without its prefix; undefined when sent from another schema. */
function announcedIn(schema: string | undefined, payload: string): string | undefined {
  const space = payload.indexOf(' ');
  return schema !== undefined && payload.slice(0, space) === schema ? payload.slice(space + 1) : undefined;
}

/** Connects `client` and reads the schema it works in; undefined when it was refused or lost first. */
async function schemaOnceUp(client: pg.Client): Promise<string | undefined> {
  try {
    await client.connect();
    return (await client.query<{ name: string }>('SELECT current_schema() AS name')).rows[0]?.name;
  } catch {
    return undefined;
  }
}

/**
 * One connection of its own that LISTENs on every channel it is given (NOTIFY is delivered only to a session that
 * listens, so it cannot share the pool), connecting again after a loss until closed. It works in the schema the
 * pool does (`connection` carries the same options) and hands on only what was `announce`d from that schema,
 * without its prefix.
 */
export function pgListener(connection: { connectionString: string; options: string }): Listener {
  const channels = new Map<string, ListenHandlers>();
  /** The channels LISTEN was sent for on the current connection, and those it holds for (told `hearing`). */
  const asked = new Set<string>();
  const heard = new Set<string>();
  let client: pg.Client | undefined;
  let connecting = false;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const again = () => {
    if (closed) return;
    retry = setTimeout(connect, RECONNECT_MS);
    retry.unref();
  };
  /** LISTENs on each channel not asked for yet on `on`; a failure ends the connection, which connects again. */
  const listenAll = async (on: pg.Client) => {
    for (const [channel, handlers] of channels) {
      if (asked.has(channel)) continue;
      asked.add(channel);
      try {
        await on.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      } catch {
        asked.delete(channel);
        await on.end().catch(() => {});
        return;
      }
      if (client !== on) return;
      heard.add(channel);
      handlers.hearing(true);
    }
  };
  const connect = async () => {
    if (closed || connecting || client) return;
    connecting = true;
    const next = new pg.Client(connection);
    let schema: string | undefined;
    next.on('notification', (message) => {
      const payload = announcedIn(schema, message.payload ?? '');
      if (payload !== undefined) channels.get(message.channel)?.notified(payload);
    });
    // An error is followed by 'end'; without a listener it would be thrown.
    next.on('error', () => {});
    next.on('end', () => {
      if (client !== next) return;
      client = undefined;
      for (const channel of heard) channels.get(channel)?.hearing(false);
      heard.clear();
      asked.clear();
      again();
    });
    schema = await schemaOnceUp(next);
    connecting = false;
    if (schema === undefined || closed) {
      await next.end().catch(() => {});
      again();
      return;
    }
    client = next;
    await listenAll(next);
  };
  return {
    listen(channel, handlers) {
      channels.set(channel, handlers);
      if (client) void listenAll(client);
      else void connect();
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      const current = client;
      client = undefined;
      for (const handlers of channels.values()) handlers.closed();
      await current?.end().catch(() => {});
    },
  };
}
