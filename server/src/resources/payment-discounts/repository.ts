import type { Kysely } from 'kysely';
import type { components, operations } from '../../../../generated/openapi.ts';
import { flag, money } from '../../db/column-codecs.ts';
import { filtered, storeTable } from '../../db/store-table.ts';
import type { Database } from '../index.ts';

export type PaymentDiscount = components['schemas']['PaymentDiscount'];
type ListPaymentDiscountsQuery = NonNullable<operations['listPaymentDiscounts']['parameters']['query']>;

/** One discount per payment method per store: UNIQUE (store_id, payment_method) refuses a second one. */
export function paymentDiscountsRepository(db: Kysely<Database>) {
  const discounts = storeTable(db, 'payment_discounts', { percentage: money, active: flag });
  return {
    /** A method that already has a discount in the store throws `DuplicateRecord`. */
    createPaymentDiscount: discounts.insert,
    getPaymentDiscountById: discounts.find,
    /** A method that already has a discount in the store throws `DuplicateRecord`. */
    updatePaymentDiscount: discounts.replace,
    deletePaymentDiscount: discounts.delete,
    listPaymentDiscounts: (storeId: string, query: ListPaymentDiscountsQuery) =>
      discounts.page(
        storeId,
        query,
        (rows) => filtered(rows, { payment_method: query.paymentMethod, active: query.active }),
        'asc',
      ),
  };
}
