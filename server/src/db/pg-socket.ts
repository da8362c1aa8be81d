import type { Writable } from 'node:stream';
import type pg from 'pg';

/**
 * The socket a pg connection writes to (`client.connection.stream`, which pg's types leave out): corked, a
 * connection's statements leave in one write (pg-answered-later.ts, pg-shared-connections.ts).
 */
export const socketOf = (client: pg.ClientBase): Writable =>
  (client as unknown as { connection: { stream: Writable } }).connection.stream;
