import type { OperationId } from '../contract.ts';
import { found } from '../errors.ts';
import type { Repositories } from './index.ts';
import { type Deps, deleted, type Handler, ok } from './operation.ts';

/**
 * What a plain operation does with the repository method of its own name: `list` answers the page it returns,
 * `get` the record it finds (404 RESOURCE_NOT_FOUND when none), `delete` `{ id, deleted: true }` when it deleted
 * one (404 otherwise).
 */
type Plain = 'list' | 'get' | 'delete';

type PlainInput = { storeId: string; path: Record<string, string>; query: unknown };
type PlainHandler = (input: PlainInput, deps: Deps) => Promise<{ status: 200; body: unknown }>;
type Method = (storeId: string, argument: unknown) => Promise<unknown>;

/**
 * The handlers of a resource's plain operations, keyed by operationId: `repository` serves each one with its
 * method of the same name; `record` names the record in the reply and, with `Id`, the path parameter that
 * identifies it: `plainHandlers('gifts', 'gift', { listGifts: 'list', getGiftById: 'get', deleteGift: 'delete' })`.
 * Anything more (references, rules, events) is written out in the resource's handlers.
 */
export function plainHandlers<
  Repository extends keyof Repositories,
  const Operations extends { [Op in OperationId & keyof Repositories[Repository]]?: Plain },
>(
  repository: Repository,
  record: string,
  operations: Operations,
): { [Op in keyof Operations & OperationId]: Handler<Op> } {
  const handlers: Record<string, PlainHandler> = {};
  for (const [operation, plain] of Object.entries(operations) as [string, Plain][]) {
    const call = (deps: Deps, storeId: string, argument: unknown) => {
      const methods = deps.repositories[repository] as unknown as Record<string, Method>;
      const method = methods[operation];
      if (!method) throw new Error(`${String(repository)} has no method ${operation}`);
      return method(storeId, argument);
    };
    handlers[operation] = {
      list: async ({ storeId, query }: PlainInput, deps: Deps) =>
        ({ status: 200, body: ok(await call(deps, storeId, query)) }) as const,
      get: async ({ storeId, path }: PlainInput, deps: Deps) =>
        ({ status: 200, body: ok({ [record]: found(await call(deps, storeId, path[`${record}Id`])) }) }) as const,
      delete: async ({ storeId, path }: PlainInput, deps: Deps) => {
        const id = path[`${record}Id`] ?? '';
        return deleted(id, (await call(deps, storeId, id)) === true);
      },
    }[plain];
  }
  // The compiler cannot follow a method chosen by name to the contract's reply type: each reply is exactly what the
  // repository method returns (list) or finds (get), which the resource's tests compare whole.
  return handlers as unknown as { [Op in keyof Operations & OperationId]: Handler<Op> };
}
