// Target baseline-express: a bare Express 5 app answering the same fixed JSON, with body parsing and no
// validation, authentication or storage (the framework floor).
//   node bench/baseline-express.ts   (env PORT; prints "listening <port>" when ready)
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createdProductResponse, productResponse, webhookPageResponse } from './fixtures.ts';

const product = productResponse();
const created = createdProductResponse();
const webhooks = webhookPageResponse();

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.use(express.json({ limit: '1mb' }));
app.get('/api/v1/products/:productId', (_req, res) => {
  res.json(product);
});
app.post('/api/v1/products', (_req, res) => {
  res.status(201).json(created);
});
app.get('/api/v1/webhooks', (_req, res) => {
  res.json(webhooks);
});

const server = app.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`listening ${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
