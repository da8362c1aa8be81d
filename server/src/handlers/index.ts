import { abandonedCartHandlers } from './abandoned-carts.ts';
import { adminHandlers } from './admin.ts';
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
import { templateHandlers } from './templates.ts';
import { upsellHandlers } from './upsells.ts';

/** The handlers not yet moved into a resource folder; `resources/index.ts` spreads them in. */
export const legacyHandlers = {
  ...orderHandlers,
  ...customerHandlers,
  ...leadHandlers,
  ...abandonedCartHandlers,
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
