import { expect } from 'vitest';
import { detailPaths, UNKNOWN } from './catalog.ts';
import type { Api, ErrorBody } from './fixture.ts';

type Reply = { response: Response; error?: { error: ErrorBody['error'] | string } | undefined };
type PageQuery = { limit?: number; page?: number };

/** One store-scoped resource's operations, each a typed call of the contract. */
export interface StoreScopedOperations {
  /** Creates a valid record in the client's store; `id` is the new record's. */
  create(api: Api): Promise<Reply & { id: string | undefined }>;
  get(api: Api, id: string): Promise<Reply>;
  update(api: Api, id: string): Promise<Reply>;
  remove(api: Api, id: string): Promise<Reply>;
  list(api: Api, query: PageQuery): Promise<Reply & { data?: { data: { pagination: { total: number } } } }>;
}

/** A by-id operation of a resource, called by a client on an id. */
export type ById = (api: Api, id: string) => Promise<Reply>;

/**
 * 404 RESOURCE_NOT_FOUND from each operation for an unknown id, and the very same error for another store's record
 * (`id`, which the store's own client then still reads).
 */
export async function expectNotFoundAlike(
  operations: ById[],
  read: ById,
  { api, otherStore }: { api: Api; otherStore: Api },
  id: string,
): Promise<void> {
  for (const operation of operations) {
    const unknown = await operation(api, UNKNOWN);
    expect(unknown.response.status).toBe(404);
    expect(unknown.error).toMatchObject({ error: { code: 'RESOURCE_NOT_FOUND' } });
    const foreign = await operation(otherStore, id);
    expect(foreign.response.status).toBe(404);
    expect(foreign.error?.error).toEqual(unknown.error?.error);
  }
  expect((await read(api, id)).response.status).toBe(200);
}

/** Each reply is 403 AUTH_SCOPE_DENIED. */
export function expectScopeDenied(replies: Reply[]): void {
  for (const denied of replies) {
    expect(denied.response.status).toBe(403);
    expect(denied.error).toMatchObject({ error: { code: 'AUTH_SCOPE_DENIED' } });
  }
}

/** A 400 VALIDATION_ERROR whose details name `field`. */
export function expectInvalid({ response, error }: Reply, field: string): void {
  expect(response.status).toBe(400);
  expect(error).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
  expect(detailPaths(error)).toContain(field);
}

/** A 400 VALIDATION_ERROR whose only detail names the query parameter `field`. */
export function expectQueryInvalid({ response, error }: Reply, field: string): void {
  expect(response.status).toBe(400);
  expect(error).toMatchObject({ error: { code: 'VALIDATION_ERROR', details: [{ location: 'query', path: field }] } });
}

/** The page queries a list refuses: `limit` 0 and 101 and `page` 0, each with the parameter its 400 names. */
export const outOfBounds = [
  [{ limit: 0 }, 'limit'],
  [{ limit: 101 }, 'limit'],
  [{ page: 0 }, 'page'],
] as const;

/** The same page queries as query strings (for a `querySerializer`). */
export const outOfBoundsQueries = [
  ['limit=0', 'limit'],
  ['limit=101', 'limit'],
  ['page=0', 'page'],
] as const;

/** A list refuses `limit` 0 and 101 and `page` 0 with 400 VALIDATION_ERROR, naming the parameter. */
export async function expectPageBounds(list: (query: PageQuery) => Promise<Reply>): Promise<void> {
  for (const [query, field] of outOfBounds) {
    expectInvalid(await list(query), field);
  }
}

/**
 * What every store-scoped resource promises: 404 RESOURCE_NOT_FOUND alike for an unknown id and another store's,
 * a list that never shows another store's records, 403 AUTH_SCOPE_DENIED without the resource's scope, and
 * 400 VALIDATION_ERROR naming `limit`/`page` outside their bounds.
 */
export async function expectStoreScoped(
  operations: StoreScopedOperations,
  clients: { api: Api; otherStore: Api; withoutScope: Api },
): Promise<void> {
  const { api, otherStore, withoutScope } = clients;
  const created = await operations.create(api);
  expect(created.response.status).toBe(201);
  const id = created.id ?? UNKNOWN;
  await expectNotFoundAlike([operations.get, operations.update, operations.remove], operations.get, clients, id);
  expect((await operations.list(otherStore, { limit: 5 })).data?.data.pagination.total).toBe(0);
  expectScopeDenied([
    await operations.create(withoutScope),
    await operations.list(withoutScope, {}),
    await operations.get(withoutScope, id),
    await operations.remove(withoutScope, id),
  ]);
  await expectPageBounds((query) => operations.list(api, query));
}
