import type { RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { contractOperations, type Operation, type OperationId } from '../contract.ts';
import { ApiError } from '../errors.ts';
import { REUSABLE_REPLIES } from '../resources/index.ts';
import type { Deps, Handler, Handlers, Input } from '../resources/operation.ts';
import type { TextReply, WriteThread } from '../write-thread.ts';
import { runClaimingAhead, runIdempotently, type StoredReply } from './idempotency.ts';
import { isKeyUnclaimed } from './idempotency-store.ts';
import { LoggerOnFirstUse } from './logger-on-first-use.ts';
import type { ReplyCache } from './reply-cache.ts';

/** Fails start-up when an operation of the contract has no handler (or a handler has no operation). */
export function assertHandlersCoverContract(
  handlers: Partial<Record<string, unknown>>,
  operations = contractOperations,
) {
  const missing = operations.filter((operation) => typeof handlers[operation.operationId] !== 'function');
  const known = new Set(operations.map((operation) => operation.operationId as string));
  const orphan = Object.keys(handlers).filter((name) => !known.has(name));
  if (missing.length > 0 || orphan.length > 0) {
    throw new Error(
      [
        missing.length > 0 ? `operations without a handler: ${missing.map((op) => op.operationId).join(', ')}` : '',
        orphan.length > 0 ? `handlers without an operation: ${orphan.join(', ')}` : '',
      ]
        .filter(Boolean)
        .join('; '),
    );
  }
}

/** An operation as the routes hand it over: what its handler receives, and its `Idempotency-Key` (writes). */
export interface OperationCall {
  operationId: OperationId;
  input: Pick<Input<OperationId>, 'path' | 'query' | 'body' | 'storeId'>;
  idempotencyKey: string | undefined;
}

/** How the routes reach the store. */
export interface Storage {
  /** The dependencies of a read: repositories on the pool. */
  deps: Deps;
  /**
   * Runs one write in a transaction, with `deps` bound to it: the change, its events and (with an
   * `Idempotency-Key`) the stored reply commit together or not at all (on PostgreSQL in a COMMIT it may share with
   * other writes, never failing because of them: `pg-group-commit.ts`).
   */
  write<Result>(work: (deps: Deps) => Promise<Result>): Promise<Result>;
  /**
   * The embedded store's write operations, run whole on the write thread (`write-thread.ts`) while it runs;
   * undefined runs them here through `write`.
   */
  writeThread?: Pick<WriteThread, 'running' | 'run'>;
  /**
   * Replies may be sent as JSON text made already (a reply recorded for its `Idempotency-Key`): not while responses
   * are checked against the contract, which express-openapi-validator does on the object given to `res.json`.
   */
  textReplies?: boolean;
  /**
   * Replies of the reads in `REUSABLE_REPLIES`, sent again while the store has not changed; undefined (a store
   * without a committed version): every read runs.
   */
  replies?: ReplyCache;
}

/**
 * Runs an operation's handler on `deps` (the pool, or a write's transaction), a write with an `Idempotency-Key`
 * at most once per key (`runIdempotently`). The request thread and the write thread both run operations through it.
 * `logOf` gives the request's logger, built only if the handler asks for it.
 */
export function perform(
  handler: Handler<OperationId>,
  call: OperationCall,
  logOf: () => Logger,
  deps: Deps,
  claimAhead = false,
): Promise<StoredReply> {
  const input = Object.assign(new LoggerOnFirstUse(logOf), call.input) as Input<OperationId>;
  const execute = () => handler(input, deps) as Promise<StoredReply>;
  if (!call.idempotencyKey) return execute();
  const { storeId } = call.input;
  const scope = { storeId, key: call.idempotencyKey, operationId: call.operationId, body: call.input.body };
  const repository = deps.repositories.idempotency;
  const ahead = claimAhead ? repository.ahead : undefined;
  return ahead ? runClaimingAhead(repository, ahead, scope, execute) : runIdempotently(repository, scope, execute);
}

/**
 * A write in a transaction of its own, its key's claim sent ahead where the store can (`runClaimingAhead`); when
 * the key was not free, run again claiming first, which answers the replay, the 409 or the 422. So it does after a
 * keyed write that met a duplicate: a request with the same key and body that committed after the claim's snapshot
 * and before its lock is not seen by the claim, and its record, which would have failed this one's, comes after the
 * change that clashes with its own (the same slug). Claiming first, in a fresh snapshot, answers its replay, or the
 * same 409 DUPLICATE_ENTRY again when the duplicate is another record's.
 */
export async function writeClaimingAhead(
  storage: Storage,
  keyed: boolean,
  run: (deps: Deps, claimAhead: boolean) => Promise<StoredReply>,
) {
  try {
    return await storage.write((deps) => run(deps, true));
  } catch (error) {
    const recordedMeanwhile = keyed && error instanceof ApiError && error.code === 'DUPLICATE_ENTRY';
    if (!isKeyUnclaimed(error) && !recordedMeanwhile) throw error;
    return storage.write((deps) => run(deps, false));
  }
}

/**
 * Sends a handler's reply: the JSON text the write thread made of it, the text recorded for its key when `asText`
 * (responses not checked against the contract), else its body as JSON.
 */
function send(res: Response, reply: StoredReply | TextReply, asText: boolean): void {
  if (reply.headers) res.set(reply.headers);
  if (!('body' in reply)) res.status(reply.status).type('json').send(reply.json);
  else if (asText && reply.json !== undefined) res.status(reply.status).type('json').send(reply.json);
  else res.status(reply.status).json(reply.body);
}

/**
 * Every operation of the contract, dispatched by the operation the validator's look-up found for the request
 * (`req.storefront.operation`, set by authentication): the request is matched against the contract's paths
 * once, not again by an Express router. Each operation calls the handler named by its operationId and sends its
 * reply. Every operation other than a GET is a write and runs in a transaction of its own (see
 * `Storage.write`): a half-done change is never left behind, whatever the handler does after its first statement.
 */
export function contractRoutes(
  handlers: Handlers,
  storage: Storage,
  operations: Operation[] = contractOperations,
): RequestHandler {
  assertHandlersCoverContract(handlers, operations);
  const routes = new Map<OperationId, RequestHandler>();
  for (const operation of operations) {
    const handler = handlers[operation.operationId] as Handler<OperationId>;
    const replies = REUSABLE_REPLIES.has(operation.operationId) ? storage.replies : undefined;
    routes.set(operation.operationId, async (req, res, next) => {
      try {
        const state = req.storefront;
        const call: OperationCall = {
          operationId: operation.operationId,
          input: {
            // The path parameters as the validator decoded and checked them.
            path: (req as { openapi?: { pathParams?: Record<string, string> } }).openapi?.pathParams ?? {},
            query: req.query,
            body: req.body,
            storeId: state.storeId ?? '',
          } as unknown as OperationCall['input'],
          idempotencyKey: operation.idempotent ? req.get('idempotency-key') : undefined,
        };
        const logOf = () => state.log;
        const thread = storage.writeThread;
        const read = () => perform(handler, call, logOf, storage.deps);
        const reply =
          operation.method === 'get'
            ? await (replies ? replies.reply(`${call.input.storeId} ${req.url}`, read) : read())
            : thread?.running()
              ? await thread.run(call)
              : await writeClaimingAhead(storage, call.idempotencyKey !== undefined, (deps, claimAhead) =>
                  perform(handler, call, logOf, deps, claimAhead),
                );
        send(res, reply, storage.textReplies === true);
      } catch (error) {
        next(error);
      }
    });
  }
  return (req, res, next) => {
    const operation = req.storefront.operation;
    const route = operation && routes.get(operation.operationId);
    if (!route) return next();
    return route(req, res, next);
  };
}
