// Target baseline-raw: a bare node:http server answering the fixed JSON of each operation (the limit).
//   node bench/baseline-raw.ts   (env PORT; prints "listening <port>" when ready)
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createdProductResponse, productResponse, webhookPageResponse } from './fixtures.ts';

const product = Buffer.from(JSON.stringify(productResponse()));
const created = Buffer.from(JSON.stringify(createdProductResponse()));
const webhooks = Buffer.from(JSON.stringify(webhookPageResponse()));

function answer(res: http.ServerResponse, status: number, body: Buffer): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length });
  res.end(body);
}

const server = http.createServer((req, res) => {
  const url = req.url ?? '';
  if (req.method === 'POST' && url.startsWith('/api/v1/products')) {
    // Read the body as a real server must, then answer.
    req.resume();
    req.on('end', () => answer(res, 201, created));
  } else if (req.method === 'GET' && url.startsWith('/api/v1/products/')) answer(res, 200, product);
  else if (req.method === 'GET' && url.startsWith('/api/v1/webhooks')) answer(res, 200, webhooks);
  else answer(res, 404, Buffer.from('{"success":false}'));
});
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`listening ${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
