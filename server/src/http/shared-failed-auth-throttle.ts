import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Store } from '../db/database.ts';
import { announce } from '../db/pg-listener.ts';
import type { Database } from '../resources/index.ts';
import type { FailedAuthThrottle } from './failed-auth-throttle.ts';

/** The NOTIFY channel on which an instance announces a failed authentication to the others sharing PostgreSQL. */
export const AUTH_FAILED_CHANNEL = 'storefront_auth_failed';

/**
 * `local`, with each failure it records also announced to the other instances on the same PostgreSQL schema, and
 * theirs recorded here as they arrive, so that an address meets the limit across instances rather than once per
 * instance. An announcement takes milliseconds; while this instance's listener reconnects, others' failures are
 * missed. A payload names its instance, since a session hears its own NOTIFY too: `<instance> <address>`.
 */
export function sharedFailedAuthThrottle(
  local: FailedAuthThrottle,
  db: Kysely<Database>,
  listen: NonNullable<Store['listen']>,
): FailedAuthThrottle {
  const instance = randomUUID();
  listen(AUTH_FAILED_CHANNEL, {
    notified(payload) {
      const [sender, address] = payload.split(' ');
      if (sender !== instance && address) local.recordFailure(address);
    },
    hearing() {},
    closed() {},
  });
  return {
    limit: local.limit,
    blockedFor: (address) => local.blockedFor(address),
    recordFailure(address) {
      local.recordFailure(address);
      announce(db, AUTH_FAILED_CHANNEL, `${instance} ${address}`).catch(() => {});
    },
  };
}
