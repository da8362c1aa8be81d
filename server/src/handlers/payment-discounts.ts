import { randomUUID } from 'node:crypto';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { now } from '../domain/clock.ts';
import { duplicateEntry, notFound } from '../errors.ts';
import { paginationOf } from '../repositories/pagination.ts';
import type { PaymentDiscount, PaymentDiscountsRepository } from '../repositories/payment-discounts-repository.ts';
import { type Handlers, ok } from '../resources/operation.ts';

/**
 * Stores the discount; a payment method that already has one in the store is 409 DUPLICATE_ENTRY. The UNIQUE
 * (store_id, payment_method) constraint decides, so concurrent creates for one method leave exactly one.
 */
async function save(discounts: PaymentDiscountsRepository, discount: PaymentDiscount, existing: boolean) {
  try {
    await (existing ? discounts.replace(discount) : discounts.insert(discount));
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw duplicateEntry('paymentMethod', `já existe um desconto para ${discount.paymentMethod} nesta loja`);
    }
    throw error;
  }
}

export const paymentDiscountHandlers: Pick<
  Handlers,
  | 'listPaymentDiscounts'
  | 'createPaymentDiscount'
  | 'getPaymentDiscountById'
  | 'updatePaymentDiscount'
  | 'deletePaymentDiscount'
> = {
  async listPaymentDiscounts({ storeId, query }, { repositories }) {
    const { paymentDiscounts, page } = await repositories.paymentDiscounts.list(storeId, query, query);
    return { status: 200, body: ok({ paymentDiscounts, pagination: paginationOf(page) }) };
  },

  async createPaymentDiscount({ storeId, body }, { repositories }) {
    const at = now();
    const paymentDiscount: PaymentDiscount = {
      id: randomUUID(),
      storeId,
      paymentMethod: body.paymentMethod,
      percentage: body.percentage,
      active: body.active ?? true,
      createdAt: at,
      updatedAt: at,
    };
    await save(repositories.paymentDiscounts, paymentDiscount, false);
    return { status: 201, body: ok({ paymentDiscount }) };
  },

  async getPaymentDiscountById({ storeId, path }, { repositories }) {
    const paymentDiscount = await repositories.paymentDiscounts.find(storeId, path.paymentDiscountId);
    if (!paymentDiscount) throw notFound();
    return { status: 200, body: ok({ paymentDiscount }) };
  },

  async updatePaymentDiscount({ storeId, path, body }, { repositories }) {
    const current = await repositories.paymentDiscounts.find(storeId, path.paymentDiscountId);
    if (!current) throw notFound();
    const paymentDiscount: PaymentDiscount = { ...current, ...body, updatedAt: now() };
    await save(repositories.paymentDiscounts, paymentDiscount, true);
    return { status: 200, body: ok({ paymentDiscount }) };
  },

  async deletePaymentDiscount({ storeId, path }, { repositories }) {
    if (!(await repositories.paymentDiscounts.delete(storeId, path.paymentDiscountId))) throw notFound();
    return { status: 204, body: undefined };
  },
};
