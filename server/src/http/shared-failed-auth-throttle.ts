import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import type { Store } from '../db/database.ts';
import type { Database } from '../resources/index.ts';
import type { FailedAuthThrottle } from './failed-auth-throttle.ts';

/** The NOTIFY channel on which an instance announces a failed authentication to the others sharing PostgreSQL. */
export const AUTH_FAILED_CHANNEL = 'storefront_auth_failed';

/**
 * `local`, with each failure it records also announced to the other instances on the same PostgreSQL schema, and
 * theirs recorded here as they arrive, so that an address meets the limit across instances rather than once per
 * instance. An announcement takes milliseconds; while this instance's listener reconnects, others' failures are
 * missed. A payload names its schema (instances on other schemas of the database are other deployments) and its
 * instance (a session hears its own NOTIFY too): `<schema> <instance> <address>`.
 */
export function sharedFailedAuthThrottle(
  local: FailedAuthThrottle,
  db: Kysely<Database>,
  listen: NonNullable<Store['listen']>,
): FailedAuthThrottle {
  const instance = randomUUID();
  let schema: Promise<string> | undefined;
  // Asked once, and again after a failure: the schema the pool's connections work in.
  const ownSchema = () =>
    (schema ??= sql<{ name: string }>`SELECT current_schema() AS name`
      .execute(db)
      .then(({ rows }) => rows[0]?.name ?? '')
      .catch((error: unknown) => {
        schema = undefined;
        throw error;
      }));
  listen(AUTH_FAILED_CHANNEL, {
    notified(payload) {
      const [from, sender, address] = payload.split(' ');
      if (sender === instance || !address) return;
      ownSchema()
        .then((own) => {
          if (from === own) local.recordFailure(address);
        })
        .catch(() => {});
    },
    hearing() {},
    closed() {},
  });
  return {
    limit: local.limit,
    blockedFor: (address) => local.blockedFor(address),
    recordFailure(address) {
      local.recordFailure(address);
      ownSchema()
        .then((own) => sql`SELECT pg_notify(${AUTH_FAILED_CHANNEL}, ${`${own} ${instance} ${address}`})`.execute(db))
        .catch(() => {});
    },
  };
}
