import { reason } from '../../../../lib/reasons.ts';
import { now } from '../../domain/clock.ts';
import { newId } from '../../domain/new-id.ts';
import { duplicateAs, found } from '../../errors.ts';
import { plainHandlers } from '../crud-handlers.ts';
import { type Handlers, ok } from '../operation.ts';
import type { PaymentDiscount } from './repository.ts';

// The UNIQUE (store_id, payment_method) constraint decides, so concurrent creates for one method leave exactly one.
const methodTaken = (discount: PaymentDiscount) =>
  ['paymentMethod', reason('payment-method-taken', { paymentMethod: discount.paymentMethod })] as const;

export const paymentDiscountHandlers = {
  ...plainHandlers('paymentDiscounts', 'paymentDiscount', {
    listPaymentDiscounts: 'list',
    getPaymentDiscountById: 'get',
    deletePaymentDiscount: 'delete',
  }),

  async createPaymentDiscount({ storeId, body }, { repositories }) {
    const at = now();
    const paymentDiscount: PaymentDiscount = { id: newId(), storeId, ...body, createdAt: at, updatedAt: at };
    await duplicateAs(
      repositories.paymentDiscounts.createPaymentDiscount(paymentDiscount),
      ...methodTaken(paymentDiscount),
    );
    return { status: 201, body: ok({ paymentDiscount }) };
  },

  async updatePaymentDiscount({ storeId, path, body }, { repositories }) {
    const current = found(await repositories.paymentDiscounts.getPaymentDiscountById(storeId, path.paymentDiscountId));
    const paymentDiscount: PaymentDiscount = { ...current, ...body, updatedAt: now() };
    await duplicateAs(
      repositories.paymentDiscounts.updatePaymentDiscount(paymentDiscount),
      ...methodTaken(paymentDiscount),
    );
    return { status: 200, body: ok({ paymentDiscount }) };
  },
} satisfies Partial<Handlers>;
