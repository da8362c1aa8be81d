import { randomUUID } from 'node:crypto';
import { type IncomingMessage, type RequestListener, type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { RequestHandler } from 'express';
import type { Logger } from 'pino';
import { originForm } from '../../../lib/origin-form.ts';
import { reason } from '../../../lib/reasons.ts';
import { ApiError, detail, errorBody, validationError } from '../errors.ts';

/**
 * What a request Node's HTTP parser refuses is answered, by the parser's error code: the status Node itself would
 * send (node:_http_server › socketOnError), in the error envelope.
 */
function clientErrorOf(code: string | undefined): ApiError {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError('VALIDATION_ERROR', {
        status: 431,
        details: [detail('header', '', reason('request-headers-too-large'))],
      });
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new ApiError('PAYLOAD_TOO_LARGE');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError('VALIDATION_ERROR', {
        status: 408,
        details: [detail('header', '', reason('request-incomplete'))],
      });
    default:
      return validationError([detail('header', '', reason('request-malformed'))]);
  }
}

/** Writes `error` on a socket no response has started on, in the envelope with a fresh `X-Request-Id`, and closes it. */
function answerOnSocket(socket: Duplex, error: ApiError, logger: Logger, cause: string | undefined): void {
  const requestId = randomUUID();
  const body = JSON.stringify(errorBody(error.status, error.code, error.message, error.details));
  logger.info({ reqId: requestId, status: error.status, cause }, 'request refused before routing');
  socket.end(
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

/** Requests that expect `100 Continue` and have not had it (a server without `answerClientErrors` sends it itself). */
const awaitingContinue = new WeakSet<IncomingMessage>();

/**
 * Answers in the documented envelope, with an `X-Request-Id`, what Node would otherwise answer bare or not at
 * all: a request its parser refuses (malformed, headers over the limit, too slow: 400, 431, 408), and a CONNECT
 * (405: this server is no proxy). A request whose `Expect` is not `100-continue` is served as if it had none, as
 * RFC 9110 allows, instead of Node's bare 417; one that expects `100-continue` is invited to send its body only
 * once authenticated (`continueOnceAuthenticated`). The socket is closed after the answer, as Node does.
 */
export function answerClientErrors(server: Server, app: RequestListener, logger: Logger): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A response already under way on this connection must not be corrupted by a second one (Node's own rule).
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    answerOnSocket(socket, clientErrorOf(error.code), logger, error.code);
  });
  server.on('connect', (_request: IncomingMessage, socket: Duplex) => {
    answerOnSocket(socket, new ApiError('METHOD_NOT_ALLOWED'), logger, 'CONNECT');
  });
  server.on('checkExpectation', app);
  // `Expect: 100-continue`: Node would invite the body at once; the app does once the request is authenticated.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    awaitingContinue.add(req);
    app(req, res);
  });
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
  if (req.httpVersion !== '1.1' || req.headers.host !== undefined) return next();
  next(validationError([detail('header', 'host', reason('host-required'))]));
};

/**
 * Sends `100 Continue` to a request that waits for it before its body is read, that is once the request is
 * authenticated (app.ts): a client without a valid key is answered without having sent its body.
 */
export const continueOnceAuthenticated: RequestHandler = (req, res, next) => {
  if (awaitingContinue.delete(req)) res.writeContinue();
  next();
};
