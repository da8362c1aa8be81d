import { automationHandlers } from './automations.ts';
import { giftHandlers } from './gifts.ts';
import { kitHandlers } from './kits.ts';
import { metatagHandlers } from './metatags.ts';
import { orderBumpHandlers } from './order-bumps.ts';
import { orderHandlers } from './orders.ts';
import { upsellHandlers } from './upsells.ts';
import { webhookHandlers } from './webhooks.ts';

/** The handlers not yet moved into a resource folder; `resources/index.ts` spreads them in. */
export const legacyHandlers = {
  ...orderHandlers,
  ...webhookHandlers,
  ...automationHandlers,
  ...metatagHandlers,
  ...kitHandlers,
  ...giftHandlers,
  ...upsellHandlers,
  ...orderBumpHandlers,
};
