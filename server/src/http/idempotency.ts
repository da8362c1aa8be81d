import { hash } from 'node:crypto';
import { contractCount, contractText } from '../contract.ts';
import { ApiError } from '../errors.ts';
import { type IdempotencyRepository, isKeyUnclaimed } from './idempotency-store.ts';

/** How long a key's reply is replayed: the contract's `IdempotencyKey` › `x-replay-window` (24 hours, in seconds). */
export const REPLAY_WINDOW_MS = contractCount('#/components/parameters/IdempotencyKey/x-replay-window') * 1000;
/** The `Idempotent-Replayed` header a replay carries, with the one value the contract's header allows. */
const REPLAYED = {
  'Idempotent-Replayed': contractText('#/components/headers/IdempotentReplayed/schema/enum/0'),
};

export interface StoredReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
  /** The body as JSON text, where it was made already (the reply recorded for an `Idempotency-Key`). */
  json?: string;
}

/** Canonical JSON (keys sorted) so that the same body always hashes the same. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function requestHash(operationId: string, body: unknown): string {
  return hash('sha256', `${operationId}\n${canonical(body)}`, 'hex');
}

/** Only a success is kept for a key's replays. */
const succeeded = (reply: StoredReply) => reply.status >= 200 && reply.status < 300;

/** Stores a successful reply for the key's replays; any other frees the key for a corrected retry. */
async function remembered(
  repository: IdempotencyRepository,
  { storeId, key }: { storeId: string; key: string },
  reply: StoredReply,
): Promise<StoredReply> {
  if (!succeeded(reply)) {
    await repository.release(storeId, key);
    return reply;
  }
  return recordedAs(reply, (json) => repository.complete(storeId, key, reply.status, json));
}

/** A successful reply, recorded for its key as JSON text by `record`: the same text is the one sent. */
async function recordedAs(reply: StoredReply, record: (json: string) => Promise<void>): Promise<StoredReply> {
  const json = JSON.stringify(reply.body);
  await record(json);
  return { ...reply, json };
}

/**
 * Runs `execute` at most once per (store, key) within 24 hours. A replay gets the first response with
 * `Idempotent-Replayed: true`; the same key with another body is 422. Only successful responses are remembered.
 *
 * Call it inside the write's transaction, with `repository` and `execute` bound to it: the claim, the change and
 * the stored reply then commit together or not at all, so a crash never leaves a key claimed without its reply,
 * and a failure frees the key for a corrected retry by rolling back. A request that arrives while another with
 * the same key is running answers 409 `IDEMPOTENCY_KEY_IN_USE` at once (PostgreSQL: the key is held for the
 * transaction); on the embedded store writes run one at a time, so it is answered, after the first, with its
 * replay. A committed `pending` claim can only be left by a crash of a version that claimed in a transaction of
 * its own: it is taken over.
 */
export async function runIdempotently(
  repository: IdempotencyRepository,
  scope: { storeId: string; key: string; operationId: string; body: unknown },
  execute: () => Promise<StoredReply>,
  now: () => number = Date.now,
): Promise<StoredReply> {
  const { storeId, key, operationId } = scope;
  const hash = requestHash(operationId, scope.body);
  const startedAt = now();
  for (;;) {
    const claim = await repository.claim(storeId, key, operationId, hash, new Date(startedAt).toISOString());
    if (claim === 'claimed') break;
    if (claim === 'in-use') throw new ApiError('IDEMPOTENCY_KEY_IN_USE');
    const existing = await repository.find(storeId, key);
    if (!existing) continue;
    const expired = Date.parse(existing.createdAt) <= startedAt - REPLAY_WINDOW_MS;
    const stale = existing.state === 'pending' || existing.status === null || existing.body === null;
    if (expired || stale) {
      // Older than the replay window, or a claim whose request died: the key is free again.
      await repository.release(storeId, key);
      continue;
    }
    if (existing.requestHash !== hash) throw new ApiError('IDEMPOTENCY_KEY_MISMATCH');
    const json = existing.body ?? 'null';
    return { status: existing.status ?? 200, body: JSON.parse(json), headers: REPLAYED, json };
  }
  return remembered(repository, { storeId, key }, await execute());
}

/**
 * PostgreSQL's first try at a keyed write: the claim is sent ahead, unanswered, and leaves with the write's first
 * statement, as the record of the key with its reply leaves with the COMMIT (pg-answered-later.ts): a create is two
 * writes to PostgreSQL instead of three, and the key's record is written once. Should the key not be free (a
 * replay, a mismatch, a request running with it), the claim fails the transaction (`isKeyUnclaimed`), and the
 * caller runs the write again through `runIdempotently`, which claims first and answers as it always has. A
 * handler that fails before any statement learns the claim's outcome first, so a replay is never answered with the
 * failure of a second run. A reply other than a success records nothing: the key stays free for a corrected retry.
 */
export async function runClaimingAhead(
  repository: IdempotencyRepository,
  ahead: NonNullable<IdempotencyRepository['ahead']>,
  scope: { storeId: string; key: string; operationId: string; body: unknown },
  execute: () => Promise<StoredReply>,
  now: () => number = Date.now,
): Promise<StoredReply> {
  const { storeId, key, operationId } = scope;
  const claimed = {
    storeId,
    key,
    operationId,
    requestHash: requestHash(operationId, scope.body),
    claimedAt: new Date(now()).toISOString(),
  };
  await ahead.claim(claimed);
  let reply: StoredReply;
  try {
    reply = await execute();
  } catch (error) {
    if (!isKeyUnclaimed(error)) {
      await repository.settled().catch((settling: unknown) => {
        // A transaction the handler's own failure aborted answers "aborted": the claim before it had held.
        if (isKeyUnclaimed(settling)) throw settling;
      });
    }
    throw error;
  }
  if (!succeeded(reply)) return reply;
  return recordedAs(reply, (json) => ahead.record(claimed, reply.status, json));
}
