// What a path of the contract allows, as the server lists it in a 405's `Allow`: the path's operations in the
// order the contract writes them, and HEAD where it has GET (both answer a HEAD as the GET, without its body).
import { allowHeader, type ContractDocument, isObject, METHODS, operationMethods } from '../../lib/contract.ts';
import type { FindOperation } from './credentials.ts';

/** The `Allow` of the contract path a request's path is, or undefined when it is none. */
export type AllowOf = (pathname: string) => string | undefined;

export function allowOf(contract: ContractDocument, find: FindOperation): AllowOf {
  const paths = isObject(contract.doc.paths) ? contract.doc.paths : {};
  return (pathname) => {
    const path = METHODS.map((method) => find(method, pathname)?.path).find((found) => found !== undefined);
    const item = path === undefined ? undefined : contract.deref(paths[path]);
    if (!isObject(item)) return undefined;
    return allowHeader(operationMethods(item));
  };
}
