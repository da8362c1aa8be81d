import { orderHandlers } from './orders.ts';

/** The handlers not yet moved into a resource folder; `resources/index.ts` spreads them in. */
export const legacyHandlers = {
  ...orderHandlers,
};
