import type { Request, Response } from 'express';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { OperationId } from '../contract.ts';
import type { Deps, Handler } from '../resources/operation.ts';
import { requestLog } from './request-log.ts';
import { type OperationCall, perform } from './routes.ts';

/**
 * Whether `log` is the one getter of a prototype, not an accessor of the object's own: an own accessor is a new
 * getter for every request, which kept each request alive through young-generation collections (logger-on-first-use.ts).
 */
const logIsInherited = (made: object) =>
  Object.getOwnPropertyDescriptor(made, 'log') === undefined &&
  typeof Object.getOwnPropertyDescriptor(Object.getPrototypeOf(made), 'log')?.get === 'function';

describe('the per-request objects with a logger made on first use', () => {
  it("requestLog's request state: the logger made once, when first read, from a getter every request shares", () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    const states = [1, 2].map(() => {
      const req = { get: () => undefined } as unknown as Request;
      const res = { setHeader: () => res, on: () => res } as unknown as Response;
      requestLog(logger)(req, res, () => {});
      return req.storefront;
    });
    for (const state of states) expect(logIsInherited(state)).toBe(true);
    const [first] = states;
    expect(first?.log).toBe(first?.log);
    first?.log.info('hello');
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ reqId: first?.requestId, msg: 'hello' });
  });

  it("perform's handler input: the path, query, body and store of the call, and the logger asked for once", async () => {
    const logger = pino({ level: 'silent' });
    let made = 0;
    const logOf = () => {
      made += 1;
      return logger;
    };
    const inputs: unknown[] = [];
    // Any handler: this one only keeps what it was given.
    const handler = (async (input: unknown) => {
      inputs.push(input);
      return { status: 200, body: { seen: made } };
    }) as unknown as Handler<OperationId>;
    const call: OperationCall = {
      operationId: 'getProductById',
      input: { path: { productId: 'p1' }, query: {}, body: {}, storeId: 's1' },
      idempotencyKey: undefined,
    };
    expect(await perform(handler, call, logOf, {} as Deps)).toEqual({ status: 200, body: { seen: 0 } });
    const [input] = inputs as { path: unknown; storeId: string; log: unknown }[];
    expect(input).toMatchObject({ path: { productId: 'p1' }, query: {}, body: {}, storeId: 's1' });
    expect(logIsInherited(input as object)).toBe(true);
    expect(input?.log).toBe(logger);
    expect(input?.log).toBe(logger);
    expect(made).toBe(1);
  });
});
