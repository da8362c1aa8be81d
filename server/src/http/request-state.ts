import type { Request } from 'express';
import type { Logger } from 'pino';
import type { Operation } from '../contract.ts';

/** What the middlewares learn about a request, for the handlers after them. */
export interface RequestState {
  requestId: string;
  log: Logger;
  operation?: Operation;
  /** The store the request acts on: `X-Store-Id` on v1, the checkout key's store on /checkout. */
  storeId?: string;
  /** The credential that authenticated the request (an API key or checkout key id, or `admin`). */
  principal?: string;
}

declare module 'express-serve-static-core' {
  interface Request {
    storefront: RequestState;
  }
}

export function stateOf(req: Request): RequestState {
  return req.storefront;
}
