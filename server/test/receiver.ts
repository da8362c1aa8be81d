import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request a receiver got, and the status it answered. */
export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  status: number;
}

/**
 * A loopback webhook receiver recording every request. `answer` decides each status from the request's
 * `webhook-id` and how many times that id has arrived (1 for the first).
 */
export async function webhookReceiver(answer: (messageId: string, nth: number) => number = () => 204) {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers[name] = value;
      const messageId = headers['webhook-id'] ?? '';
      const nth = received.filter((request) => request.headers['webhook-id'] === messageId).length + 1;
      const status = answer(messageId, nth);
      received.push({ path: req.url ?? '', headers, body: Buffer.concat(chunks).toString('utf8'), status });
      res.statusCode = status;
      res.end();
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    received,
    /** The requests answered 2XX. */
    delivered: () => received.filter((request) => request.status >= 200 && request.status < 300),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The payload of a request, verified the way a receiver would: the `standardwebhooks` library with default
 * settings (throws when the signature does not verify).
 */
export function verified(secret: string, request: Received): unknown {
  return new Webhook(secret).verify(request.body, {
    'webhook-id': request.headers['webhook-id'] ?? '',
    'webhook-timestamp': request.headers['webhook-timestamp'] ?? '',
    'webhook-signature': request.headers['webhook-signature'] ?? '',
  });
}
