import { createHash } from 'node:crypto';
import { ApiError } from '../errors.ts';
import type { IdempotencyRepository } from '../repositories/idempotency-repository.ts';

export const REPLAY_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface StoredReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
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
  return createHash('sha256').update(operationId).update('\n').update(canonical(body)).digest('hex');
}

/**
 * Runs `execute` at most once per (store, key) within 24 hours. A replay gets the first response with
 * `Idempotent-Replayed: true`; the same key with another body is 422; a key whose first request is still
 * running is 409. Only successful responses are remembered: a failure frees the key for a corrected retry.
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
  if (!(await repository.claim(storeId, key, operationId, hash, new Date(startedAt).toISOString()))) {
    const existing = await repository.find(storeId, key);
    const expired = existing && Date.parse(existing.createdAt) <= startedAt - REPLAY_WINDOW_MS;
    if (!existing || expired) {
      // Gone meanwhile, or older than the replay window: the key is free again.
      if (expired) await repository.release(storeId, key, new Date(startedAt - REPLAY_WINDOW_MS).toISOString());
      return runIdempotently(repository, scope, execute, now);
    }
    if (existing.requestHash !== hash) throw new ApiError(422, 'IDEMPOTENCY_KEY_MISMATCH');
    if (existing.state === 'pending' || existing.status === null || existing.body === null) {
      throw new ApiError(409, 'IDEMPOTENCY_KEY_IN_USE');
    }
    return {
      status: existing.status,
      body: JSON.parse(existing.body),
      headers: { 'Idempotent-Replayed': 'true' },
    };
  }
  let reply: StoredReply;
  try {
    reply = await execute();
  } catch (error) {
    await repository.release(storeId, key);
    throw error;
  }
  if (reply.status >= 200 && reply.status < 300) {
    await repository.complete(storeId, key, reply.status, JSON.stringify(reply.body));
  } else {
    await repository.release(storeId, key);
  }
  return reply;
}
