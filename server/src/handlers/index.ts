import { adminHandlers } from './admin.ts';
import { categoryHandlers } from './categories.ts';
import { productHandlers } from './products.ts';
import type { Handlers } from './types.ts';
import { unservedHandlers } from './unserved.ts';

/** Every operation of the contract, by operationId. A missing one fails the type check and start-up. */
export const handlers: Handlers = {
  ...unservedHandlers,
  ...productHandlers,
  ...categoryHandlers,
  ...adminHandlers,
};
