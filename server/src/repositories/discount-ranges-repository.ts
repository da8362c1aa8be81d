import type { Kysely, Selectable, Transaction } from 'kysely';
import type { components } from '../../../generated/openapi.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database, DiscountRangesTable, DiscountRangeTiersTable } from '../db/schema.ts';
import {
  flag,
  flagColumn,
  json,
  jsonColumn,
  money,
  moneyColumn,
  nullableMoney,
  nullableMoneyColumn,
} from './columns.ts';
import { type PageRequest, pageOf } from './pagination.ts';

export type DiscountRange = components['schemas']['DiscountRange'];
export type DiscountRangeTier = components['schemas']['DiscountRangeTier'];

function toRow(range: DiscountRange): Selectable<DiscountRangesTable> {
  return {
    id: range.id,
    store_id: range.storeId,
    name: range.name,
    rule_type: range.ruleType,
    applies_to_all_products: flagColumn(range.appliesToAllProducts),
    apply_discount_to: range.applyDiscountTo,
    item_range_start: range.itemRangeStart,
    item_range_end: range.itemRangeEnd,
    item_range_order_by: range.itemRangeOrderBy,
    start_at: range.startAt,
    end_at: range.endAt,
    active: flagColumn(range.active),
    priority: range.priority,
    product_ids: jsonColumn(range.productIds),
    created_at: range.createdAt,
    updated_at: range.updatedAt,
  };
}

function toRange(row: Selectable<DiscountRangesTable>, tiers: DiscountRangeTier[]): DiscountRange {
  return {
    id: row.id,
    storeId: row.store_id,
    name: row.name,
    ruleType: row.rule_type as DiscountRange['ruleType'],
    appliesToAllProducts: flag(row.applies_to_all_products),
    applyDiscountTo: row.apply_discount_to as DiscountRange['applyDiscountTo'],
    itemRangeStart: row.item_range_start,
    itemRangeEnd: row.item_range_end,
    itemRangeOrderBy: row.item_range_order_by as DiscountRange['itemRangeOrderBy'],
    startAt: row.start_at,
    endAt: row.end_at,
    active: flag(row.active),
    priority: row.priority,
    tiers,
    productIds: json(row.product_ids),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function tierRow(rangeId: string, tier: DiscountRangeTier): Selectable<DiscountRangeTiersTable> {
  return {
    id: tier.id,
    discount_range_id: rangeId,
    min_value: nullableMoneyColumn(tier.minValue),
    max_value: nullableMoneyColumn(tier.maxValue),
    min_quantity: tier.minQuantity,
    max_quantity: tier.maxQuantity,
    discount_type: tier.discountType,
    discount_amount: moneyColumn(tier.discountAmount),
    position: tier.position,
  };
}

function toTier(row: Selectable<DiscountRangeTiersTable>): DiscountRangeTier {
  return {
    id: row.id,
    minValue: nullableMoney(row.min_value),
    maxValue: nullableMoney(row.max_value),
    minQuantity: row.min_quantity,
    maxQuantity: row.max_quantity,
    discountType: row.discount_type as DiscountRangeTier['discountType'],
    discountAmount: money(row.discount_amount),
    position: row.position,
  };
}

async function writeTiers(trx: Transaction<Database>, range: DiscountRange): Promise<void> {
  await trx.deleteFrom('discount_range_tiers').where('discount_range_id', '=', range.id).execute();
  await trx
    .insertInto('discount_range_tiers')
    .values(range.tiers.map((tier) => tierRow(range.id, tier)))
    .execute();
}

export function discountRangesRepository(db: Kysely<Database>) {
  /** The tiers of the given ranges, each list ordered by position. */
  async function tiersOf(rangeIds: readonly string[]): Promise<Map<string, DiscountRangeTier[]>> {
    const byRange = new Map<string, DiscountRangeTier[]>(rangeIds.map((id) => [id, []]));
    if (rangeIds.length === 0) return byRange;
    const rows = await db
      .selectFrom('discount_range_tiers')
      .selectAll()
      .where('discount_range_id', 'in', [...rangeIds])
      .orderBy('position')
      .orderBy('id')
      .execute();
    for (const row of rows) byRange.get(row.discount_range_id)?.push(toTier(row));
    return byRange;
  }

  return {
    /** The range and its tiers land together. */
    async insert(range: DiscountRange): Promise<void> {
      await inTransaction(db, async (trx) => {
        await trx.insertInto('discount_ranges').values(toRow(range)).execute();
        await writeTiers(trx, range);
      });
    },

    async find(storeId: string, id: string): Promise<DiscountRange | undefined> {
      const row = await db
        .selectFrom('discount_ranges')
        .selectAll()
        .where('store_id', '=', storeId)
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row) return undefined;
      return toRange(row, (await tiersOf([row.id])).get(row.id) ?? []);
    },

    /** Replaces the range's fields and, when `tiersChanged`, its whole tier list, in one transaction. */
    async replace(range: DiscountRange, tiersChanged: boolean): Promise<void> {
      const { id, store_id, created_at: _created, ...changes } = toRow(range);
      await inTransaction(db, async (trx) => {
        await trx
          .updateTable('discount_ranges')
          .set(changes)
          .where('store_id', '=', store_id)
          .where('id', '=', id)
          .execute();
        if (tiersChanged) await writeTiers(trx, range);
      });
    },

    async delete(storeId: string, id: string): Promise<boolean> {
      return inTransaction(db, async (trx) => {
        const owned = await trx
          .selectFrom('discount_ranges')
          .select('id')
          .where('store_id', '=', storeId)
          .where('id', '=', id)
          .executeTakeFirst();
        if (!owned) return false;
        await trx.deleteFrom('discount_range_tiers').where('discount_range_id', '=', id).execute();
        await trx.deleteFrom('discount_ranges').where('store_id', '=', storeId).where('id', '=', id).execute();
        return true;
      });
    },

    /** Ordered by priority (the higher wins), then the newest first. */
    async list(storeId: string, active: boolean | undefined, request: PageRequest) {
      let query = db.selectFrom('discount_ranges').where('store_id', '=', storeId);
      if (active !== undefined) query = query.where('active', '=', flagColumn(active));
      const counted = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
      const page = pageOf(request, Number(counted?.n ?? 0));
      const rows = await query
        .selectAll()
        .orderBy('priority', 'desc')
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      const tiers = await tiersOf(rows.map((row) => row.id));
      return { discountRanges: rows.map((row) => toRange(row, tiers.get(row.id) ?? [])), page };
    },
  };
}

export type DiscountRangesRepository = ReturnType<typeof discountRangesRepository>;
