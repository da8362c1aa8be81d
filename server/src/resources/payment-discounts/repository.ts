import type { Kysely } from 'kysely';
import type { components, operations } from '../../../../generated/openapi.ts';
import { flag, money } from '../../db/column-codecs.ts';
import { storeTable } from '../../db/store-table.ts';
import type { Database } from '../index.ts';

export type PaymentDiscount = components['schemas']['PaymentDiscount'];
type ListPaymentDiscountsQuery = NonNullable<operations['listPaymentDiscounts']['parameters']['query']>;

/** One discount per payment method per store: UNIQUE (store_id, payment_method) refuses a second one. */
export function paymentDiscountsRepository(db: Kysely<Database>) {
  const discounts = storeTable(db, 'payment_discounts', { percentage: money, active: flag });
  return {
    /** createPaymentDiscount and updatePaymentDiscount throw `DuplicateRecord` for a method that already has one. */
    ...discounts.operations(
      'createPaymentDiscount',
      'getPaymentDiscountById',
      'updatePaymentDiscount',
      'deletePaymentDiscount',
    ),
    listPaymentDiscounts: discounts.list(
      'paymentDiscounts',
      (q: ListPaymentDiscountsQuery) => ({ payment_method: q.paymentMethod, active: q.active }),
      { order: 'asc' },
    ),
  };
}
