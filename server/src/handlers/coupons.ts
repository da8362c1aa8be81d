import { randomUUID } from 'node:crypto';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { now } from '../domain/clock.ts';
import { requirePercentAtMost100, requireWindow } from '../domain/offer-rules.ts';
import { duplicateEntry, notFound } from '../errors.ts';
import type { Coupon, CouponsRepository } from '../repositories/coupons-repository.ts';
import { paginationOf } from '../repositories/pagination.ts';
import { type Handlers, ok } from '../resources/operation.ts';

/** The rules of CouponCreate/CouponUpdate the schema cannot state, on the coupon as it would be stored. */
function checkCouponRules(coupon: Coupon): void {
  requirePercentAtMost100(coupon.discountType, coupon.discountAmount, 'discountAmount');
  requireWindow(coupon.startsAt, coupon.endsAt, 'endsAt', 'startsAt');
}

/** Stores the coupon; a code already used in the store is 409 DUPLICATE_ENTRY (the UNIQUE constraint decides). */
async function save(coupons: CouponsRepository, coupon: Coupon, existing: boolean): Promise<void> {
  try {
    await (existing ? coupons.replace(coupon) : coupons.insert(coupon));
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateEntry('code', `código já utilizado: ${coupon.code}`);
    throw error;
  }
}

/** Coupons are never deleted (section 1): there is no deleteCoupon; PATCH `status: INACTIVE` retires one. */
export const couponHandlers: Pick<Handlers, 'listCoupons' | 'createCoupon' | 'getCouponById' | 'updateCoupon'> = {
  async listCoupons({ storeId, query }, { repositories }) {
    const { coupons, page } = await repositories.coupons.list(storeId, query, query);
    return { status: 200, body: ok({ coupons, pagination: paginationOf(page) }) };
  },

  async createCoupon({ storeId, body }, { repositories }) {
    const at = now();
    const coupon: Coupon = {
      id: randomUUID(),
      storeId,
      code: body.code,
      description: body.description ?? null,
      discountType: body.discountType,
      discountAmount: body.discountAmount,
      minCartTotal: body.minCartTotal ?? null,
      maxUses: body.maxUses ?? null,
      usedCount: 0,
      startsAt: body.startsAt ?? null,
      endsAt: body.endsAt ?? null,
      status: body.status ?? 'ACTIVE',
      createdAt: at,
      updatedAt: at,
    };
    checkCouponRules(coupon);
    await save(repositories.coupons, coupon, false);
    return { status: 201, body: ok({ coupon }) };
  },

  async getCouponById({ storeId, path }, { repositories }) {
    const coupon = await repositories.coupons.find(storeId, path.couponId);
    if (!coupon) throw notFound();
    return { status: 200, body: ok({ coupon }) };
  },

  async updateCoupon({ storeId, path, body }, { repositories }) {
    const current = await repositories.coupons.find(storeId, path.couponId);
    if (!current) throw notFound();
    const coupon: Coupon = { ...current, ...body, updatedAt: now() };
    checkCouponRules(coupon);
    await save(repositories.coupons, coupon, true);
    return { status: 200, body: ok({ coupon }) };
  },
};
