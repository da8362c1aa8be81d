// The write thread (started by write-thread.ts): runs the embedded store's write operations whole on a connection
// of its own, the ones that were waiting together in one transaction (commitTogether, each in a savepoint), and
// answers each with its reply or its failure once that has committed.
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import type { Kysely } from 'kysely';
import pino from 'pino';
import type { OperationId } from './contract.ts';
import { connectSqlite, type Store, sqliteKysely } from './db/database.ts';
import { checkpointOnCommit, leaveCheckpointsToThread } from './db/sqlite-checkpointer.ts';
import { commitTogether } from './db/sqlite-group-commit.ts';
import { gatedTransactions } from './db/sqlite-restart-gate.ts';
import { ApiError } from './errors.ts';
import type { StoredReply } from './http/idempotency.ts';
import { perform } from './http/routes.ts';
import { revocationsSoFar } from './resources/credentials/key-revocations.ts';
import { type Database, handlers } from './resources/index.ts';
import type { Handler } from './resources/operation.ts';
import { depsFor } from './storage.ts';
import {
  asText,
  type Failure,
  type ThreadAnswer,
  type ThreadAnswers,
  type ThreadCall,
  type ThreadMessage,
  type WriteThreadOptions,
} from './write-thread.ts';

const { file, network, logLevel, textReplies, restartGate } = workerData as Omit<
  WriteThreadOptions,
  'checkpointerFellBack'
>;
const database = connectSqlite(file);
leaveCheckpointsToThread(database);
const db = sqliteKysely(database, gatedTransactions(restartGate));
const store: Store = { db, engine: 'sqlite', close: () => db.destroy() };
// Handlers that log write through the thread's own logger (the request's access line is the request thread's).
const logger = pino({ level: logLevel });
const port = parentPort;

function failureOf(error: unknown): Failure {
  if (error instanceof ApiError) {
    return { apiError: { status: error.status, code: error.code, message: error.message, details: error.details } };
  }
  const { name = 'Error', message = String(error), stack } = error instanceof Error ? error : {};
  return { error: { name, message, stack } };
}

/** Writes one transaction takes at most (`commitTogether`): more than a loaded server has connections. */
const LARGEST_GROUP = 64;

/** Runs calls that were waiting together as one group (`commitTogether`), and answers them in one message. */
async function runTogether(calls: ThreadCall[]): Promise<void> {
  const revocations = revocationsSoFar();
  const works = calls.map(
    ({ call }) =>
      (trx: Kysely<Database>) =>
        perform(handlers[call.operationId] as Handler<OperationId>, call, () => logger, depsFor(trx, store, network)),
  );
  const settled = await commitTogether(db, database, works);
  const answers = calls.map(({ id }, index): ThreadAnswer => {
    const outcome = settled[index] as PromiseSettledResult<StoredReply>;
    if (outcome.status === 'rejected') return { id, failure: failureOf(outcome.reason) };
    return { id, reply: textReplies ? asText(outcome.value) : outcome.value };
  });
  port?.postMessage({ keysRevoked: revocationsSoFar() !== revocations, answers } satisfies ThreadAnswers);
}

async function obey(instruction: Exclude<ThreadMessage, ThreadCall>): Promise<void> {
  if (instruction === 'checkpoint-on-commit') {
    checkpointOnCommit(database);
    return;
  }
  await store.close();
  port?.close();
}

/**
 * Messages in the order they came. A call runs within one turn of the event loop, before the next message is
 * delivered, so the calls that arrived meanwhile are taken off the port at once (`receiveMessageOnPort`): they
 * run together, up to the next instruction.
 */
const waiting: ThreadMessage[] = [];
let working = false;

port?.on('message', async (message: ThreadMessage) => {
  waiting.push(message);
  if (working) return;
  working = true;
  try {
    while (waiting.length > 0) {
      for (let next = receiveMessageOnPort(port); next; next = receiveMessageOnPort(port)) {
        waiting.push(next.message as ThreadMessage);
      }
      const [first] = waiting;
      if (typeof first === 'string') {
        waiting.shift();
        await obey(first);
        continue;
      }
      const instruction = waiting.findIndex((queued) => typeof queued === 'string');
      const end = Math.min(instruction < 0 ? waiting.length : instruction, LARGEST_GROUP);
      await runTogether(waiting.splice(0, end) as ThreadCall[]);
    }
  } finally {
    working = false;
  }
});
