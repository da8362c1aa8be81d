import type { PostgresPool, PostgresPoolClient } from 'kysely';
import pg from 'pg';
import { socketOf } from './pg-socket.ts';

/**
 * Connections that reads outside a transaction share, for Kysely's PostgreSQL dialect in place of a pool: each is in
 * pg's pipeline mode, so a read never waits for a free connection, and the reads started in one turn of the event
 * loop leave in one write (the socket is corked until the turn ends): PostgreSQL answers them at one wake-up of its
 * backend instead of one each, which is what a statement costs on this VM. Each statement still has its own answer,
 * its own error and its own implicit transaction. A transaction here would take in the other reads' statements, so
 * `begin` is refused: writes have the pool (database.ts).
 */
export function sharedConnections(config: pg.ClientConfig, count: number, prepare: (client: pg.ClientBase) => void) {
  const clients: (Promise<pg.Client> | undefined)[] = Array.from({ length: count }, () => undefined);
  /** Reads sent on each connection and not answered yet: a read goes where fewest wait (a slow one holds the rest). */
  const waiting = Array.from({ length: count }, () => 0);

  const connect = (slot: number): Promise<pg.Client> => {
    const client = new pg.Client({ ...config, pipeline: true });
    const forget = () => {
      if (clients[slot] === connected) clients[slot] = undefined;
    };
    // A connection that fails is replaced by the next read; its reads in flight fail with it.
    client.on('error', forget);
    client.on('end', forget);
    const connected = client.connect().then(() => {
      prepare(client);
      corkEachTurn(client);
      return client;
    });
    connected.catch(forget);
    clients[slot] = connected;
    return connected;
  };

  const read = (text: string, parameters: unknown[]) => {
    const slot = waiting.indexOf(Math.min(...waiting));
    waiting[slot] = (waiting[slot] ?? 0) + 1;
    const connection = clients[slot] ?? connect(slot);
    return connection
      .then((client) => client.query(text, parameters))
      .catch((error: unknown) => {
        // PostgreSQL ended the connection (its FATAL error comes before the socket closes): replace it now.
        if (connectionLost(error) && clients[slot] === connection) clients[slot] = undefined;
        throw error;
      })
      .finally(() => {
        waiting[slot] = (waiting[slot] ?? 1) - 1;
      });
  };

  const shared: PostgresPoolClient = {
    query: ((text: string, parameters: unknown[]) => {
      if (/^\s*(begin|start transaction)\b/i.test(text)) {
        return Promise.reject(new Error('a transaction needs a connection of its own: run it on the pool'));
      }
      return read(text, parameters).catch((error: unknown) => {
        if (!connectionLost(error)) throw error;
        // A read changes nothing, so one whose connection ended before its answer runs again on another.
        return read(text, parameters);
      });
    }) as PostgresPoolClient['query'],
    release() {},
  };

  const pool: PostgresPool = {
    options: {},
    connect: async () => shared,
    async end() {
      const open = await Promise.allSettled(clients);
      await Promise.all(open.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value?.end() : undefined)));
    },
  };
  return pool;
}

/**
 * Whether a read failed with its connection rather than for itself: PostgreSQL ended the session (FATAL), or the
 * connection broke (a socket's error, or pg's own: neither comes from PostgreSQL, so neither has a severity).
 */
function connectionLost(error: unknown): boolean {
  const { severity } = error as { severity?: unknown };
  return severity === undefined || severity === 'FATAL' || severity === 'PANIC';
}

/** Holds a connection's writes until the event loop's turn ends, then sends them in one write. */
function corkEachTurn(client: pg.Client): void {
  const stream = socketOf(client);
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  client.query = ((...args: unknown[]) => {
    if (stream.writableCorked === 0) {
      stream.cork();
      setImmediate(() => stream.uncork());
    }
    return query(...args);
  }) as typeof client.query;
}
