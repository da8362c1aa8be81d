import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { isRequestId } from '../contract.ts';
import { LoggerOnFirstUse } from './logger-on-first-use.ts';

/**
 * Gives every request an id (the caller's `X-Request-Id` when the contract's `RequestId` allows it, else a new
 * uuid), a child logger that stamps it on every line, and one access-log line when the response is finished.
 * Only method, route template, operationId, status and duration are logged: never the URL (its path or query
 * string), headers or bodies.
 */
export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const incoming = req.get('x-request-id');
    const requestId = incoming && isRequestId(incoming) ? incoming : randomUUID();
    // The child logger is made on first use (with the access line off, LOG_LEVEL above info, building it for
    // every request would cost more than the request).
    req.storefront = Object.assign(new LoggerOnFirstUse(() => logger.child({ reqId: requestId })), { requestId });
    res.setHeader('X-Request-Id', requestId);
    if (!logger.isLevelEnabled('info')) return next();
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      // The contract's path template, never the URL: a key pasted into the query string or a path segment
      // would otherwise reach the log. A request outside the contract's paths logs no path at all.
      const operation = req.storefront.operation;
      // The root logger with reqId as a field: the same line as the child's, without building a child.
      logger.info(
        {
          reqId: requestId,
          method: req.method,
          route: operation?.path ?? null,
          operationId: operation?.operationId ?? null,
          status: res.statusCode,
          ms: Math.round(ms * 10) / 10,
        },
        'request',
      );
    });
    next();
  };
}
