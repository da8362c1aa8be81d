// The workloads: what each connection sends, per target. Every request carries a valid key and store.
import { randomUUID } from 'node:crypto';
import type { Request } from 'autocannon';
import { LIST_LIMIT, productBodyFactory } from './fixtures.ts';
import type { Target } from './targets.ts';

/** The kinds of workload, in the order the bench measures them. */
export const WORKLOAD_KINDS = ['get-product', 'create-product', 'list-webhooks', 'mixed'] as const;
/** The operation a workload measures; list variants of one kind compare to the same baseline row. */
export type WorkloadKind = (typeof WORKLOAD_KINDS)[number];

export interface Workload {
  /** Unique per target, e.g. `list-webhooks 100000 last`. */
  id: string;
  kind: WorkloadKind;
  /** What it sends, for the report. */
  describe: string;
  requests: Request[];
}

function headers(target: Target, storeId = target.seed.storeId): Record<string, string> {
  return { authorization: `Bearer ${target.seed.apiKey}`, 'x-store-id': storeId };
}

function getProduct(target: Target): Request {
  return { method: 'GET', path: `/api/v1/products/${target.seed.productId}`, headers: headers(target) };
}

/** A createProduct with a fresh Idempotency-Key and a unique name (its slug must be new) every time. */
function createProduct(target: Target): Request {
  const body = productBodyFactory();
  const base = { ...headers(target), 'content-type': 'application/json' };
  return {
    method: 'POST',
    path: '/api/v1/products',
    headers: base,
    setupRequest: (request) => {
      const unique = randomUUID();
      return { ...request, headers: { ...base, 'idempotency-key': unique }, body: body(unique) };
    },
  };
}

function listWebhooks(target: Target, page: number, storeId?: string): Request {
  return {
    method: 'GET',
    path: `/api/v1/webhooks?page=${page}&limit=${LIST_LIMIT}`,
    headers: headers(target, storeId),
  };
}

/** 80% reads (GET product by id), 20% writes (POST product): each connection cycles 4 reads then 1 write. */
export function mixed(target: Target): Workload {
  const read = getProduct(target);
  return {
    id: 'mixed',
    kind: 'mixed',
    describe: '4 × GET /api/v1/products/{id} + 1 × POST /api/v1/products, per connection, in turn',
    requests: [read, read, read, read, createProduct(target)],
  };
}

/**
 * The workloads of a target. Baselines and Prism answer a list the same whatever the page, so they get one list
 * workload; a server gets the first and the last page of each list fixture (unless it does not serve lists).
 */
export function workloadsFor(target: Target): Workload[] {
  const workloads: Workload[] = [
    {
      id: 'get-product',
      kind: 'get-product',
      describe: 'GET /api/v1/products/{id}',
      requests: [getProduct(target)],
    },
    {
      id: 'create-product',
      kind: 'create-product',
      describe: 'POST /api/v1/products (fresh Idempotency-Key)',
      requests: [createProduct(target)],
    },
  ];
  if (!target.server) {
    workloads.push({
      id: 'list-webhooks',
      kind: 'list-webhooks',
      describe: `GET /api/v1/webhooks?page=1&limit=${LIST_LIMIT}`,
      requests: [listWebhooks(target, 1)],
    });
  }
  for (const { storeId, webhooks } of target.seed.listStores) {
    const last = Math.max(1, Math.ceil(webhooks / LIST_LIMIT));
    for (const [where, page] of [
      ['first', 1],
      ['last', last],
    ] as const) {
      workloads.push({
        id: `list-webhooks ${webhooks} ${where}`,
        kind: 'list-webhooks',
        describe: `GET /api/v1/webhooks?page=${page}&limit=${LIST_LIMIT} (${webhooks} webhooks in the store)`,
        requests: [listWebhooks(target, page, storeId)],
      });
    }
  }
  workloads.push(mixed(target));
  return workloads;
}
