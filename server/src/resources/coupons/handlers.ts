import { reason } from '../../../../lib/reasons.ts';
import { now } from '../../domain/clock.ts';
import { newId } from '../../domain/new-id.ts';
import { requirePercentAtMost100, requireWindow } from '../../domain/offer-rules.ts';
import { duplicateAs, found } from '../../errors.ts';
import { plainHandlers } from '../crud-handlers.ts';
import { type Handlers, ok } from '../operation.ts';
import type { Coupon } from './repository.ts';

/** The rules of CouponCreate/CouponUpdate the schema cannot state, on the coupon as it would be stored. */
function checkCouponRules(coupon: Coupon): void {
  requirePercentAtMost100(coupon.discountType, coupon.discountAmount, 'discountAmount');
  requireWindow(coupon.startsAt, coupon.endsAt, 'endsAt', 'startsAt');
}

// The UNIQUE (store_id, code) constraint decides, so concurrent creates of one code leave exactly one.
const codeTaken = (coupon: Coupon) => ['code', reason('code-taken', { code: coupon.code })] as const;

/** Coupons are never deleted (section 1): there is no deleteCoupon; PATCH `status: INACTIVE` retires one. */
export const couponHandlers = {
  ...plainHandlers('coupons', 'coupon', { listCoupons: 'list', getCouponById: 'get' }),

  async createCoupon({ storeId, body }, { repositories }) {
    const at = now();
    const coupon: Coupon = {
      id: newId(),
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
      status: body.status,
      createdAt: at,
      updatedAt: at,
    };
    checkCouponRules(coupon);
    await duplicateAs(repositories.coupons.createCoupon(coupon), ...codeTaken(coupon));
    return { status: 201, body: ok({ coupon }) };
  },

  async updateCoupon({ storeId, path, body }, { repositories }) {
    const current = found(await repositories.coupons.getCouponById(storeId, path.couponId));
    const coupon: Coupon = { ...current, ...body, updatedAt: now() };
    checkCouponRules(coupon);
    await duplicateAs(repositories.coupons.updateCoupon(coupon), ...codeTaken(coupon));
    return { status: 200, body: ok({ coupon }) };
  },
} satisfies Partial<Handlers>;
