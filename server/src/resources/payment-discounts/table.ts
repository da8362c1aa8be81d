import type { components } from '../../../../generated/openapi.ts';

/** `payment_discounts`, as server/migrations/004_offers_pricing_checkout.sql creates it. */
export interface PaymentDiscountsTable {
  id: string;
  store_id: string;
  payment_method: components['schemas']['PaymentDiscount']['paymentMethod'];
  percentage: string;
  active: number;
  created_at: string;
  updated_at: string;
}

export interface PaymentDiscountTables {
  payment_discounts: PaymentDiscountsTable;
}
