import { abandonedCartHandlers } from './abandoned-carts.ts';
import { adminHandlers } from './admin.ts';
import { automationHandlers } from './automations.ts';
import { categoryHandlers } from './categories.ts';
import { checkoutHandlers } from './checkout.ts';
import { couponHandlers } from './coupons.ts';
import { customerHandlers } from './customers.ts';
import { discountRangeHandlers } from './discount-ranges.ts';
import { giftHandlers } from './gifts.ts';
import { kitHandlers } from './kits.ts';
import { leadHandlers } from './leads.ts';
import { metatagHandlers } from './metatags.ts';
import { orderBumpHandlers } from './order-bumps.ts';
import { orderHandlers } from './orders.ts';
import { paymentDiscountHandlers } from './payment-discounts.ts';
import { productHandlers } from './products.ts';
import { templateHandlers } from './templates.ts';
import type { Handlers } from './types.ts';
import { upsellHandlers } from './upsells.ts';
import { webhookHandlers } from './webhooks.ts';

/** Every operation of the contract, by operationId. A missing one fails the type check and start-up. */
export const handlers: Handlers = {
  ...productHandlers,
  ...categoryHandlers,
  ...orderHandlers,
  ...customerHandlers,
  ...leadHandlers,
  ...abandonedCartHandlers,
  ...webhookHandlers,
  ...automationHandlers,
  ...templateHandlers,
  ...metatagHandlers,
  ...kitHandlers,
  ...giftHandlers,
  ...upsellHandlers,
  ...orderBumpHandlers,
  ...couponHandlers,
  ...discountRangeHandlers,
  ...paymentDiscountHandlers,
  ...checkoutHandlers,
  ...adminHandlers,
};
