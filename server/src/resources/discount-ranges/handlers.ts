import type { components } from '../../../../generated/openapi.ts';
import { reason } from '../../../../lib/reasons.ts';
import { now } from '../../domain/clock.ts';
import { newId } from '../../domain/new-id.ts';
import { requireWindow } from '../../domain/offer-rules.ts';
import { found } from '../../errors.ts';
import { type RuleIssue, rejectRules, ruleViolation } from '../../rules.ts';
import { plainHandlers } from '../crud-handlers.ts';
import { type Handlers, ok } from '../operation.ts';
import { referencesAt, requireReferences } from '../products/catalog-references.ts';
import type { DiscountRange, DiscountRangeTier } from './repository.ts';

type Schemas = components['schemas'];
type TierInput = Schemas['DiscountRangeTierInput'];
type DiscountRangeUpdate = Schemas['DiscountRangeUpdate'];

const ITEM_RANGE_FIELDS = ['itemRangeStart', 'itemRangeEnd', 'itemRangeOrderBy'] as const;

/** A new tier (fresh id); `position` defaults to the tier's index in the sent array. */
const tierOf = (tier: TierInput, index: number): DiscountRangeTier => ({
  id: newId(),
  minValue: tier.minValue ?? null,
  maxValue: tier.maxValue ?? null,
  minQuantity: tier.minQuantity ?? null,
  maxQuantity: tier.maxQuantity ?? null,
  discountType: tier.discountType,
  discountAmount: tier.discountAmount,
  position: tier.position ?? index,
});

/**
 * The tier rules of DiscountRangeTierInput, on tiers in their sent order (`tiers.<index>` paths): a PERCENT
 * discount is at most 100, every tier has the lower bound its range's ruleType measures, an upper bound is not
 * below the lower one, positions are distinct, and no two tiers overlap (bounds are inclusive; a null upper
 * bound is open-ended).
 */
function tierProblems(ruleType: DiscountRange['ruleType'], tiers: readonly DiscountRangeTier[]): RuleIssue[] {
  const [minField, maxField] = ruleType === 'CART_VALUE' ? ['minValue', 'maxValue'] : ['minQuantity', 'maxQuantity'];
  const problems: RuleIssue[] = [];
  const bounded: { index: number; low: number; high: number }[] = [];
  const positions = new Set<number>();
  tiers.forEach((tier, index) => {
    const low = ruleType === 'CART_VALUE' ? tier.minValue : tier.minQuantity;
    const high = ruleType === 'CART_VALUE' ? tier.maxValue : tier.maxQuantity;
    if (tier.discountType === 'PERCENT' && tier.discountAmount > 100) {
      problems.push(ruleViolation('percent-at-most-100', `tiers.${index}.discountAmount`));
    }
    if (positions.has(tier.position)) {
      problems.push(ruleViolation('discount-range-tier-position-unique', `tiers.${index}.position`));
    }
    positions.add(tier.position);
    if (low === null) {
      problems.push(ruleViolation('discount-range-tier-bound', `tiers.${index}.${minField}`, { ruleType }));
      return;
    }
    if (high !== null && high < low) {
      problems.push(ruleViolation('discount-range-tier-order', `tiers.${index}.${maxField}`, { field: minField }));
      return;
    }
    bounded.push({ index, low, high: high ?? Number.POSITIVE_INFINITY });
  });
  bounded.sort((a, b) => a.low - b.low || a.index - b.index);
  for (let i = 1; i < bounded.length; i += 1) {
    const previous = bounded[i - 1];
    const tier = bounded[i];
    if (previous && tier && tier.low <= previous.high) {
      const [first, second] = [previous.index, tier.index].sort((a, b) => a - b);
      problems.push(
        ruleViolation('discount-range-tier-overlap', `tiers.${second}.${minField}`, { tier: String(first) }),
      );
    }
  }
  return problems;
}

/**
 * The rules of DiscountRangeCreate the schema cannot state, on the range as it would be stored. `sentTiers` are
 * the tiers in the order the body sent them (for the detail paths), or the stored ones on an update without
 * tiers. Returns the range with the item-range fields cleared for ENTIRE_CART.
 */
function checkRangeRules(range: DiscountRange, sent: DiscountRangeUpdate, sentTiers: DiscountRangeTier[]) {
  requireWindow(range.startAt, range.endAt, 'endAt', 'startAt');
  const problems: RuleIssue[] = [];
  if (!range.appliesToAllProducts && range.productIds.length === 0) {
    problems.push(ruleViolation('discount-range-products-required', 'productIds'));
  }
  if (range.applyDiscountTo === 'ITEMS') {
    if (range.itemRangeStart === null) {
      problems.push(
        ruleViolation('discount-range-item-range', 'itemRangeStart', reason('discount-range-item-range.required')),
      );
    } else if (range.itemRangeEnd !== null && range.itemRangeEnd < range.itemRangeStart) {
      problems.push(ruleViolation('discount-range-item-range-order', 'itemRangeEnd'));
    }
  } else {
    for (const field of ITEM_RANGE_FIELDS) {
      const value = sent[field];
      if (value !== undefined && value !== null) {
        problems.push(ruleViolation('discount-range-item-range', field, reason('discount-range-item-range.null')));
      }
    }
  }
  problems.push(...tierProblems(range.ruleType, sentTiers));
  rejectRules(problems);
  if (range.applyDiscountTo === 'ENTIRE_CART') {
    return { ...range, itemRangeStart: null, itemRangeEnd: null, itemRangeOrderBy: null };
  }
  return range;
}

/** Tiers built from the body in the sent order (for detail paths) and the same tiers ordered by position. */
function sentTiersOf(inputs: readonly TierInput[]): { sent: DiscountRangeTier[]; ordered: DiscountRangeTier[] } {
  const sent = inputs.map(tierOf);
  return { sent, ordered: [...sent].sort((a, b) => a.position - b.position) };
}

export const discountRangeHandlers = {
  ...plainHandlers('discountRanges', 'discountRange', { getDiscountRangeById: 'get', deleteDiscountRange: 'delete' }),

  async listDiscountRanges({ storeId, query }, { repositories }) {
    const { records, pagination } = await repositories.discountRanges.listDiscountRanges(storeId, query);
    return { status: 200, body: ok({ discountRanges: records, pagination }) };
  },

  async createDiscountRange({ storeId, body }, { repositories }) {
    const at = now();
    const tiers = sentTiersOf(body.tiers);
    const draft: DiscountRange = {
      id: newId(),
      storeId,
      name: body.name,
      ruleType: body.ruleType,
      appliesToAllProducts: body.appliesToAllProducts,
      applyDiscountTo: body.applyDiscountTo,
      itemRangeStart: body.itemRangeStart ?? null,
      itemRangeEnd: body.itemRangeEnd ?? null,
      itemRangeOrderBy: body.itemRangeOrderBy ?? null,
      startAt: body.startAt ?? null,
      endAt: body.endAt ?? null,
      active: body.active,
      priority: body.priority,
      tiers: tiers.ordered,
      productIds: body.productIds ?? [],
      createdAt: at,
      updatedAt: at,
    };
    const discountRange = checkRangeRules(draft, body, tiers.sent);
    await requireReferences(repositories, storeId, referencesAt('productIds', body.productIds));
    await repositories.discountRanges.createDiscountRange(discountRange);
    return { status: 201, body: ok({ discountRange }) };
  },

  async updateDiscountRange({ storeId, path, body }, { repositories }) {
    const current = found(await repositories.discountRanges.getDiscountRangeById(storeId, path.discountRangeId));
    const tiers = body.tiers ? sentTiersOf(body.tiers) : { sent: current.tiers, ordered: current.tiers };
    const draft: DiscountRange = { ...current, ...body, tiers: tiers.ordered, updatedAt: now() };
    const discountRange = checkRangeRules(draft, body, tiers.sent);
    await requireReferences(repositories, storeId, referencesAt('productIds', body.productIds));
    await repositories.discountRanges.updateDiscountRange(discountRange, body.tiers !== undefined);
    return { status: 200, body: ok({ discountRange }) };
  },
} satisfies Partial<Handlers>;
