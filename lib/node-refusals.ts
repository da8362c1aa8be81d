import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { type Reason, reason } from './reasons.ts';

/**
 * What Node's HTTP server refuses before a listener sees a request, as the contract answers it: a request its parser
 * refuses (malformed, headers over the limit, too slow: 400, 431, 408, by the status Node itself would send,
 * node:_http_server › socketOnError), a chunk extension over Node's limit (413), and a CONNECT (405: no proxy here).
 */
export type NodeRefusal =
  | { kind: 'invalid'; status: 400 | 408 | 431; reason: Reason }
  | { kind: 'too-large' }
  | { kind: 'connect' };

function refusalOf(code: string | undefined): NodeRefusal {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { kind: 'invalid', status: 431, reason: reason('request-headers-too-large') };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { kind: 'too-large' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { kind: 'invalid', status: 408, reason: reason('request-incomplete') };
    default:
      return { kind: 'invalid', status: 400, reason: reason('request-malformed') };
  }
}

/** A request not received whole within the deadline (Node's `ERR_HTTP_REQUEST_TIMEOUT`). */
export const REQUEST_INCOMPLETE = refusalOf('ERR_HTTP_REQUEST_TIMEOUT');

/** Answers a refusal on the socket it came on; `cause` is Node's error code (or `CONNECT`), for a log. */
export type Refuse = (socket: Duplex, refusal: NodeRefusal, cause: string | undefined) => void;

/**
 * Has `refuse` answer what Node would otherwise answer bare or not at all, and `app` serve a request whose `Expect`
 * is not `100-continue` as if it had none, as RFC 9110 allows (Node would answer a bare 417).
 */
export function refuseInEnvelope(server: Server, app: RequestListener, refuse: Refuse): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A response already under way on this connection must not be corrupted by a second one (Node's own rule).
    const inFlight = (socket as Duplex & { _httpMessage?: { headersSent: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    refuse(socket, refusalOf(error.code), error.code);
  });
  server.on('connect', (_request: IncomingMessage, socket: Duplex) => refuse(socket, { kind: 'connect' }, 'CONNECT'));
  server.on('checkExpectation', app);
}

/** Requests that expect `100 Continue` and have not had it (`inviteBodyLater`). */
const awaitingContinue = new WeakSet<IncomingMessage>();

/**
 * Has a request that expects `100-continue` invited to send its body only when `inviteBody` is called for it
 * (once its headers pass), rather than at once, as Node would: a request refused by its headers alone is answered
 * without having sent its body.
 */
export function inviteBodyLater(server: Server, app: RequestListener): void {
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    awaitingContinue.add(req);
    app(req, res);
  });
}

/** Sends `100 Continue` to a request that waits for it (`inviteBodyLater`); nothing to any other. */
export function inviteBody(req: IncomingMessage, res: ServerResponse): void {
  if (awaitingContinue.delete(req)) res.writeContinue();
}

/** Writes a JSON answer on a socket no response has started on, with `requestId` as its `X-Request-Id`, and closes it. */
export function answerOnSocket(socket: Duplex, status: number, body: string, requestId: string): void {
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      `X-Request-Id: ${requestId}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

/** Whether a request lacks the `Host` HTTP/1.1 requires (RFC 9112 › 3.2): a 400 with `HOST_REQUIRED`. */
export const lacksHost = (req: IncomingMessage): boolean => req.httpVersion === '1.1' && req.headers.host === undefined;

/** The detail of an HTTP/1.1 request without `Host`. */
export const HOST_REQUIRED: { location: 'header'; path: string; reason: Reason } = {
  location: 'header',
  path: 'host',
  reason: reason('host-required'),
};
