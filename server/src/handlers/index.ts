import { automationHandlers } from './automations.ts';
import { orderHandlers } from './orders.ts';
import { webhookHandlers } from './webhooks.ts';

/** The handlers not yet moved into a resource folder; `resources/index.ts` spreads them in. */
export const legacyHandlers = {
  ...orderHandlers,
  ...webhookHandlers,
  ...automationHandlers,
};
