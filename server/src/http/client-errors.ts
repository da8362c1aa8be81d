import { randomUUID } from 'node:crypto';
import type { RequestListener, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import {
  answerOnSocket,
  HOST_REQUIRED,
  inviteBody,
  inviteBodyLater,
  lacksHost,
  type NodeRefusal,
  refuseInEnvelope,
} from '../../../lib/node-refusals.ts';
import { originForm } from '../../../lib/origin-form.ts';
import { ApiError, detail, errorBody, validationError } from '../errors.ts';

/** A refusal of Node's as the error the server answers it with. */
function apiErrorOf(refusal: NodeRefusal): ApiError {
  switch (refusal.kind) {
    case 'too-large':
      return new ApiError('PAYLOAD_TOO_LARGE');
    case 'connect':
      return new ApiError('METHOD_NOT_ALLOWED');
    default:
      return new ApiError('VALIDATION_ERROR', {
        status: refusal.status,
        details: [detail('header', '', refusal.reason)],
      });
  }
}

/**
 * Answers in the documented envelope, with a fresh `X-Request-Id`, what Node would otherwise answer bare or not at
 * all (lib/node-refusals.ts), and logs it. A request that expects `100-continue` is invited to send its body only
 * once authenticated (`continueOnceAuthenticated`). The socket is closed after the answer, as Node does.
 */
export function answerClientErrors(server: Server, app: RequestListener, logger: Logger): void {
  refuseInEnvelope(server, app, (socket: Duplex, refusal: NodeRefusal, cause: string | undefined) => {
    const error = apiErrorOf(refusal);
    const requestId = randomUUID();
    logger.info({ reqId: requestId, status: error.status, cause }, 'request refused before routing');
    const body = errorBody(error.status, error.code, error.message, error.details);
    answerOnSocket(socket, error.status, JSON.stringify(body), requestId);
  });
  // `Expect: 100-continue`: Node would invite the body at once; the app does once the request is authenticated.
  inviteBodyLater(server, app);
}

/**
 * The request target and Host, read as HTTP/1.1 has a server read them, in one step before routing: a target in
 * absolute form (`GET http://host/api/v1/products HTTP/1.1`, as a client configured with a proxy sends it) is routed
 * by its path and query (RFC 9112 › 3.2.2; routing, the validator and the log read `req.url` in origin form:
 * lib/origin-form.ts); an HTTP/1.1 request without `Host` is a 400 (RFC 9112 › 3.2), answered by the app in the
 * envelope: Node's own check (`requireHostHeader`, turned off in listen.ts) answers it bare.
 */
export const readRequestTarget: RequestHandler = (req, _res, next) => {
  req.url = originForm(req.url);
  // Express copied the target before any middleware ran; the validator routes by this copy.
  req.originalUrl = originForm(req.originalUrl);
  if (!lacksHost(req)) return next();
  next(validationError([HOST_REQUIRED]));
};

/**
 * Sends `100 Continue` to a request that waits for it before its body is read, that is once the request is
 * authenticated (app.ts): a client without a valid key is answered without having sent its body.
 */
export const continueOnceAuthenticated: RequestHandler = (req, res, next) => {
  inviteBody(req, res);
  next();
};
