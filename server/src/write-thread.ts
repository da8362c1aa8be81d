import { Worker } from 'node:worker_threads';
import type { RestartGate } from './db/sqlite-restart-gate.ts';
import type { NetworkPolicy } from './domain/ssrf-guard.ts';
import { ApiError, type ErrorCode, type ErrorDetail } from './errors.ts';
import type { StoredReply } from './http/idempotency.ts';
import type { OperationCall } from './http/routes.ts';
import { forgetRememberedKeys } from './resources/credentials/key-revocations.ts';

/** How a call failed on the thread: an ApiError (answered as its envelope) or anything else (a logged 500). */
export type Failure =
  | { apiError: { status: number; code: ErrorCode; message: string; details: ErrorDetail[] | undefined } }
  | { error: { name: string; message: string; stack: string | undefined } };

/**
 * A reply whose body is already JSON text, sent as it is: the thread made the text, so the request thread neither
 * copies an object graph out of the message nor serialises it again.
 */
export interface TextReply extends Omit<StoredReply, 'body' | 'json'> {
  json: string;
}

/** A handler's reply with its body as JSON text, made once (kept when the reply was recorded for its key). */
export function asText({ body, json, ...rest }: StoredReply): TextReply {
  return { ...rest, json: json ?? JSON.stringify(body) };
}

/** What the thread answers for a call (write-thread-entry.ts). */
export type ThreadAnswer = { id: number } & ({ reply: StoredReply | TextReply } | { failure: Failure });

/** What the thread sends back for the calls it ran together: their answers, and whether one of them revoked a key. */
export interface ThreadAnswers {
  keysRevoked: boolean;
  answers: ThreadAnswer[];
}

/** A call to run, and the id its answer carries. */
export interface ThreadCall {
  id: number;
  call: OperationCall;
}

/** What the request thread sends: a call to run, or an instruction. */
export type ThreadMessage = ThreadCall | 'checkpoint-on-commit' | 'stop';

export interface WriteThreadOptions {
  /** The embedded store's file; the thread opens a connection of its own to it. */
  file: string;
  network: NetworkPolicy;
  logLevel: string;
  /**
   * Replies come back as `TextReply`: true unless responses are checked against the contract, which
   * express-openapi-validator does on the object given to `res.json`.
   */
  textReplies: boolean;
  /** Settles when the checkpointer's thread has failed: the write thread's connection then checkpoints itself. */
  checkpointerFellBack: Promise<void>;
  /** Closed while the checkpointer's RESTART holds the write lock: the thread waits at it before each write. */
  restartGate: RestartGate;
}

export interface WriteThread {
  /** False once the thread has stopped or failed: writes then run on the request thread, as on PostgreSQL. */
  running(): boolean;
  run(call: OperationCall): Promise<StoredReply | TextReply>;
  stop(): Promise<void>;
}

function revive(failure: Failure): Error {
  if ('apiError' in failure) {
    const { status, code, message, details } = failure.apiError;
    return new ApiError(code, { status, message, ...(details ? { details } : {}) });
  }
  const error = new Error(failure.error.message);
  error.name = failure.error.name;
  if (failure.error.stack) error.stack = failure.error.stack;
  return error;
}

/**
 * The embedded store's writes, run whole (handler, idempotency, transaction) on a thread of their own with a
 * connection of its own. node:sqlite's statements are synchronous: on the request thread a write's statements and
 * commit (about half of a create's CPU) held up every other request; here the request thread parses, checks and
 * answers requests while the second core runs the writes. Reads stay on the request thread's connection (WAL: they
 * never wait for the writer). Writes still run one at a time, in the order they arrive; those that arrived while
 * the thread was busy share one COMMIT (`sqlite-group-commit.ts`), each still all or nothing. The thread's code is
 * write-thread-entry.ts; a revoke it runs makes this thread forget its remembered API keys before the revoke is
 * answered. Should the thread fail, its calls in flight answer 500 and later writes run on the request thread.
 */
export function startWriteThread(options: WriteThreadOptions): WriteThread {
  const { checkpointerFellBack, ...settings } = options;
  const worker = new Worker(new URL('./write-thread-entry.ts', import.meta.url), { workerData: settings });
  const pending = new Map<number, { resolve(reply: StoredReply | TextReply): void; reject(error: Error): void }>();
  let nextId = 0;
  let running = true;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const fail = (reason: string) => {
    running = false;
    for (const waiter of pending.values()) waiter.reject(new Error(`the write thread ${reason}`));
    pending.clear();
  };
  worker.on('message', ({ keysRevoked, answers }: ThreadAnswers) => {
    if (keysRevoked) forgetRememberedKeys();
    for (const answer of answers) {
      const waiter = pending.get(answer.id);
      pending.delete(answer.id);
      if ('reply' in answer) waiter?.resolve(answer.reply);
      else waiter?.reject(revive(answer.failure));
    }
  });
  worker.once('error', (error) => fail(`failed: ${error.message}`));
  worker.once('exit', () => fail('stopped'));
  worker.unref();
  const send = (message: ThreadMessage) => worker.postMessage(message);
  void checkpointerFellBack.then(() => running && send('checkpoint-on-commit'));
  return {
    running: () => running,
    run(call) {
      const id = nextId++;
      return new Promise<StoredReply | TextReply>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        send({ id, call });
      });
    },
    async stop() {
      if (!running) return;
      running = false;
      // Referenced again while it closes its connection: otherwise the process could end first.
      worker.ref();
      send('stop');
      await exited;
    },
  };
}
