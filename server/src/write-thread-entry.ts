// The write thread (started by write-thread.ts): runs the embedded store's write operations whole, one
// transaction each, on a connection of its own, and answers each with its reply or its failure.
import { parentPort, workerData } from 'node:worker_threads';
import pino from 'pino';
import type { OperationId } from './contract.ts';
import { connectSqlite, type Store, sqliteKysely } from './db/database.ts';
import { checkpointOnCommit, leaveCheckpointsToThread } from './db/sqlite-checkpointer.ts';
import { gatedTransactions } from './db/sqlite-restart-gate.ts';
import { ApiError } from './errors.ts';
import { perform } from './http/routes.ts';
import { revocationsSoFar } from './resources/credentials/key-revocations.ts';
import { handlers } from './resources/index.ts';
import type { Handler } from './resources/operation.ts';
import { transactionalStorage } from './storage.ts';
import {
  asText,
  type Failure,
  type ThreadAnswer,
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
const storage = transactionalStorage(store, network);
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

port?.on('message', async (message: ThreadMessage) => {
  if (message === 'stop') {
    await store.close();
    port.close();
    return;
  }
  if (message === 'checkpoint-on-commit') {
    checkpointOnCommit(database);
    return;
  }
  const { id, call } = message;
  const revocations = revocationsSoFar();
  let answer: ThreadAnswer;
  try {
    const handler = handlers[call.operationId] as Handler<OperationId>;
    const reply = await storage.write((deps) => perform(handler, call, () => logger, deps));
    answer = { id, keysRevoked: revocationsSoFar() !== revocations, reply: textReplies ? asText(reply) : reply };
  } catch (error) {
    answer = { id, keysRevoked: revocationsSoFar() !== revocations, failure: failureOf(error) };
  }
  port.postMessage(answer);
});
