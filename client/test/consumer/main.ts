// A partner's program, outside the repository: compiled with `tsc` against the packed client installed from its
// tarball, then run against the server or the mock (client/test/pack.test.ts does all of that). It creates,
// reads, lists every product and verifies a signed webhook, and prints what it saw as one JSON line.
//   node out/main.js server|mock     (env: STOREFRONT_URL, STOREFRONT_API_KEY, STOREFRONT_STORE_ID)
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import {
  type components,
  createStorefrontClient,
  newWebhookSecret,
  verifyWebhook,
  type WebhookEvent,
} from 'storefront-api-client';

type Product = components['schemas']['Product'];

function env(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

const target = process.argv[2];
const client = createStorefrontClient({
  baseUrl: env('STOREFRONT_URL'),
  apiKey: env('STOREFRONT_API_KEY'),
  storeId: env('STOREFRONT_STORE_ID'),
});
const secret = newWebhookSecret();

/** A loopback receiver for the server's real delivery; resolves with the first one, raw. */
async function receiver() {
  let received: (delivery: { body: string; headers: IncomingHttpHeaders }) => void = () => undefined;
  const delivery = new Promise<{ body: string; headers: IncomingHttpHeaders }>((resolve) => {
    received = resolve;
  });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      res.writeHead(204).end();
      received({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/storefront`, delivery, close: () => server.close() };
}

/** The mock sends no webhooks: sign a delivery the way the server does, with the standardwebhooks library. */
function signedDelivery(product: Product): { body: string; headers: Record<string, string> } {
  const event: WebhookEvent<'PRODUCT_CREATED'> = {
    id: 'msg_2p8QjW5rT7xYc4Kd9LmN3vBz',
    type: 'PRODUCT_CREATED',
    createdAt: new Date().toISOString(),
    storeId: product.storeId,
    data: { product },
  };
  const body = JSON.stringify(event);
  const now = new Date();
  return {
    body,
    headers: {
      'webhook-id': event.id,
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign(event.id, now, body),
    },
  };
}

const hooks = target === 'server' ? await receiver() : undefined;
if (hooks) {
  await client.POST('/api/v1/webhooks', {
    body: {
      name: 'Parceiro',
      url: hooks.url,
      events: ['PRODUCT_CREATED'],
      secret,
      active: true,
      retryAttempts: 0,
      timeout: 5000,
    },
  });
}

const { data: created } = await client.POST('/api/v1/products', {
  body: { name: 'Camiseta do Parceiro', type: 'DIGITAL', price: 19.9 },
});
const product = created.data.product;
const { data: read } = await client.GET('/api/v1/products/{productId}', {
  params: { path: { productId: product.id } },
});
const listed: string[] = [];
for await (const item of client.listAll('/api/v1/products', { params: { query: { limit: 1 } } })) {
  listed.push(item.id);
}

const delivery = hooks ? await hooks.delivery : signedDelivery(product);
hooks?.close();
const event = verifyWebhook(delivery.body, delivery.headers, secret);
const webhookProduct = event.type === 'PRODUCT_CREATED' ? event.data.product : null;

process.stdout.write(
  `${JSON.stringify({ created: product, read: read.data.product, listed, event: event.type, webhookProduct })}\n`,
);
