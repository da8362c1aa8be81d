// The bodies every target answers and the bench sends, taken from the contract's named examples so that the
// baselines answer JSON of the same size as the real operations (nothing here restates a field by hand).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

export const ROOT = path.resolve(import.meta.dirname, '..');

/** Page size of the list workloads. */
export const LIST_LIMIT = 50;

let examples: JsonObject | undefined;

function example(name: string): JsonObject {
  if (!examples) {
    const doc = parse(readFileSync(path.join(ROOT, 'openapi.yaml'), 'utf8')) as {
      components: { examples: Record<string, { value: JsonObject }> };
    };
    examples = Object.fromEntries(Object.entries(doc.components.examples).map(([key, value]) => [key, value.value]));
  }
  const value = examples[name];
  if (!value) throw new Error(`openapi.yaml has no components/examples/${name}`);
  return structuredClone(value) as JsonObject;
}

/** `GetProductByIdOk`: the product with one variant, as getProductById answers it. */
export function productResponse(): JsonObject {
  return example('GetProductByIdOk');
}

/** `CreateProductCreated`: what createProduct answers. */
export function createdProductResponse(): JsonObject {
  return example('CreateProductCreated');
}

/**
 * A `ListWebhooksOk`-shaped page of `LIST_LIMIT` copies of the `CreateWebhookCreated` webhook (the one the servers'
 * list fixtures are cloned from, so the pages are the same size), out of `total`.
 */
export function webhookPageResponse(total = 1000): JsonObject {
  const body = example('ListWebhooksOk') as { data: { webhooks: JsonObject[]; pagination: JsonObject } };
  const webhook = (example('CreateWebhookCreated') as { data: { webhook: JsonObject } }).data.webhook;
  body.data.webhooks = Array.from({ length: LIST_LIMIT }, (_, i) => ({ ...webhook, name: `${webhook.name} ${i}` }));
  body.data.pagination = { page: 1, limit: LIST_LIMIT, total, totalPages: Math.ceil(total / LIST_LIMIT) };
  return body as unknown as JsonObject;
}

/**
 * The create body of the product the servers hold, matching `GetProductByIdOk` (same fields and media), so the
 * server's answer to GET is the size of the baselines' fixed answer.
 */
export function seededProduct(): JsonObject {
  const request = example('CreateProductRequest');
  const product = (productResponse() as { data: { product: JsonObject } }).data.product;
  return { ...request, media: product.media as Json };
}

/** The variant of `GetProductByIdOk`, as the admin createVariant body. */
export function seededVariant(): JsonObject {
  const product = (productResponse() as { data: { product: { variants: JsonObject[] } } }).data.product;
  const { id: _id, ...variant } = product.variants[0] as JsonObject;
  return variant;
}

/** A createProduct body with a unique name (the slug derives from it and is unique per store). */
export function productBodyFactory(): (unique: string) => string {
  const request = example('CreateProductRequest');
  return (unique) => JSON.stringify({ ...request, name: `${String(request.name)} ${unique}` });
}

/** `CreateWebhookRequest`: the template the list fixtures are cloned from. */
export function webhookRequest(): JsonObject {
  return example('CreateWebhookRequest');
}
