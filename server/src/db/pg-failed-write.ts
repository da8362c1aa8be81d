import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Which write of a group (pg-group-commit.ts) sent a statement that was answered later (pg-answered-later.ts),
 * so that when the group's COMMIT reports that statement's failure, the write that failed is known and the
 * others can commit without it.
 */
const sendingWrite = new AsyncLocalStorage<object>();
const FAILED_WRITE = Symbol('the write whose statement failed');

/** Runs one write of a group: the statements it sends answered later are marked as its. */
export function asWrite<Result>(write: object, work: () => Promise<Result>): Promise<Result> {
  return sendingWrite.run(write, work);
}

/** The write sending statements now, if a group runs it. */
export function currentWrite(): object | undefined {
  return sendingWrite.getStore();
}

/** `failure`, reported for a statement that `write` sent, marked as that write's. */
export function failureOfWrite(failure: unknown, write: object | undefined): unknown {
  if (write !== undefined && failure instanceof Object) {
    Object.defineProperty(failure, FAILED_WRITE, { value: write, configurable: true });
  }
  return failure;
}

/** The write a failure was marked as coming from, if any. */
export function failedWrite(failure: unknown): object | undefined {
  return failure instanceof Object ? (failure as { [FAILED_WRITE]?: object })[FAILED_WRITE] : undefined;
}
