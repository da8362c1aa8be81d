import type { components } from '../../../../generated/openapi.ts';

/** `payment_links`, as server/migrations/004_offers_pricing_checkout.sql creates it. */
export interface PaymentLinksTable {
  id: string;
  store_id: string;
  status: components['schemas']['PaymentLink']['status'];
  items: string;
  subtotal: string;
  discount: string;
  total: string;
  currency: string;
  coupon_id: string | null;
  customer: string | null;
  success_url: string | null;
  cancel_url: string | null;
  expires_at: string;
  created_at: string;
  updated_at: string;
}

export interface PaymentLinkTables {
  payment_links: PaymentLinksTable;
}
