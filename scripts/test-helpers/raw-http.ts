import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { expect } from 'vitest';

/** Everything a peer sends on this socket until it closes it (a close by reset included). */
export async function untilClosed(socket: Socket): Promise<string> {
  let received = '';
  socket.on('error', () => undefined);
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString();
  });
  await once(socket, 'close');
  return received;
}

/** The status line, headers (lower-cased names) and JSON body of one raw HTTP answer. */
function parsed(answer: string) {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return {
    status: Number(statusLine.split(' ')[1]),
    headers,
    body: body ? (JSON.parse(body) as unknown) : undefined,
  };
}

/** What a server on 127.0.0.1 answers on a fresh connection to `request`, sent as raw bytes, until it closes. */
export async function rawAnswer(port: number, request: string) {
  const socket = connect(port, '127.0.0.1');
  socket.write(request);
  return parsed(await untilClosed(socket));
}

/** A refusal in the error envelope, with an `X-Request-Id`, on a connection then closed. */
export const refusal = (status: number, code: string, reason?: string) => ({
  status,
  headers: expect.objectContaining({
    'content-type': expect.stringMatching(/^application\/json\b/),
    'x-request-id': expect.stringMatching(/^[0-9a-f-]{36}$/),
    connection: 'close',
  }),
  body: {
    success: false,
    error: {
      message: expect.any(String),
      code,
      ...(reason
        ? { details: [{ location: 'header', path: expect.any(String), reason: expect.stringContaining(reason) }] }
        : {}),
    },
    meta: { timestamp: expect.any(String), status },
  },
});

/**
 * Requests Node's HTTP server refuses before a listener sees them, or answers bare, each with the refusal the server
 * and the mock answer in its place (lib/node-refusals.ts); a request too slow (408) needs a short deadline, so its
 * test adds it.
 */
export const REFUSED_BY_NODE: [string, ReturnType<typeof refusal>][] = [
  ['get /api/v1/products HTTP/1.1\r\nHost: x\r\n\r\n', refusal(400, 'VALIDATION_ERROR', 'malformada')],
  [
    `GET /api/v1/products HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(17_000)}\r\n\r\n`,
    refusal(431, 'VALIDATION_ERROR', '16 KiB'),
  ],
  [
    'POST /api/v1/products HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
    refusal(400, 'VALIDATION_ERROR', 'malformada'),
  ],
  ['GET /api/v1/products HTTP/1.1\r\nConnection: close\r\n\r\n', refusal(400, 'VALIDATION_ERROR', 'HTTP/1.1')],
  ['CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', refusal(405, 'METHOD_NOT_ALLOWED')],
];

/** A request whose `Expect` is not `100-continue`, served as if it had none (RFC 9110), with no key: its 401. */
export const UNKNOWN_EXPECTATION = 'GET /api/v1/products HTTP/1.1\r\nHost: x\r\nExpect: x\r\nConnection: close\r\n\r\n';
