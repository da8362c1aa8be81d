import type { ListenHandlers } from '../../db/pg-listener.ts';

/** The NOTIFY channel on which an instance announces a revoked API key (its id) to the others sharing PostgreSQL. */
export const API_KEY_REVOKED_CHANNEL = 'storefront_api_key_revoked';

/**
 * Bumped by every revoke this process makes or hears of: a remembered key from before it is read again.
 * Process-wide rather than per repository, because a revoke may run through a repository made on a transaction.
 */
let revocations = 0;
/** Listeners not hearing other instances' revokes right now: while any is deaf, no key is remembered. */
let deafListeners = 0;

export const revocationsSoFar = () => revocations;

export const keysMayBeRemembered = () => deafListeners === 0;

export function forgetRememberedKeys(): void {
  revocations += 1;
}

/**
 * The handlers of one listener for other instances' revokes: each revoke heard forgets every remembered key, and
 * so does each gap in hearing, during which nothing is remembered (a revoke sent then would be missed).
 */
export function revokesHeard(): ListenHandlers {
  let deaf = true;
  deafListeners += 1;
  const become = (nowDeaf: boolean) => {
    if (nowDeaf === deaf) return;
    deaf = nowDeaf;
    deafListeners += deaf ? 1 : -1;
    forgetRememberedKeys();
  };
  return {
    notified: forgetRememberedKeys,
    hearing: (heard) => become(!heard),
    closed: () => become(false),
  };
}
