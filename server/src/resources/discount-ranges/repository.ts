import type { Kysely, Selectable, Transaction } from 'kysely';
import type { components, operations } from '../../../../generated/openapi.ts';
import { flag, json, money, nullableMoney } from '../../db/column-codecs.ts';
import { inTransaction } from '../../db/in-transaction.ts';
import { pageOf, storeTable } from '../../db/store-table.ts';
import type { Database } from '../index.ts';
import type { DiscountRangeTiersTable } from './table.ts';

export type DiscountRange = components['schemas']['DiscountRange'];
export type DiscountRangeTier = components['schemas']['DiscountRangeTier'];
type ListDiscountRangesQuery = NonNullable<operations['listDiscountRanges']['parameters']['query']>;

const rangeColumns = { applies_to_all_products: flag, active: flag, product_ids: json<string[]>() };

// Tiers have no store of their own (they belong to a range), so they are mapped here rather than by storeTable.
const tierRow = (rangeId: string, tier: DiscountRangeTier): Selectable<DiscountRangeTiersTable> => ({
  id: tier.id,
  discount_range_id: rangeId,
  min_value: nullableMoney.toColumn(tier.minValue),
  max_value: nullableMoney.toColumn(tier.maxValue),
  min_quantity: tier.minQuantity,
  max_quantity: tier.maxQuantity,
  discount_type: tier.discountType,
  discount_amount: money.toColumn(tier.discountAmount),
  position: tier.position,
});
const tierOf = (row: Selectable<DiscountRangeTiersTable>): DiscountRangeTier => ({
  id: row.id,
  minValue: nullableMoney.fromColumn(row.min_value),
  maxValue: nullableMoney.fromColumn(row.max_value),
  minQuantity: row.min_quantity,
  maxQuantity: row.max_quantity,
  discountType: row.discount_type,
  discountAmount: money.fromColumn(row.discount_amount),
  position: row.position,
});

async function replaceTiers(trx: Transaction<Database>, range: DiscountRange): Promise<void> {
  await trx.deleteFrom('discount_range_tiers').where('discount_range_id', '=', range.id).execute();
  await trx
    .insertInto('discount_range_tiers')
    .values(range.tiers.map((tier) => tierRow(range.id, tier)))
    .execute();
}

export function discountRangesRepository(db: Kysely<Database>) {
  const ranges = (handle: Kysely<Database>) => storeTable(handle, 'discount_ranges', rangeColumns);

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
    for (const row of rows) byRange.get(row.discount_range_id)?.push(tierOf(row));
    return byRange;
  }

  return {
    /** The range and its tiers land together. */
    createDiscountRange: (range: DiscountRange) =>
      inTransaction(db, async (trx) => {
        const { tiers: _tiers, ...fields } = range;
        await ranges(trx).insert(fields);
        await replaceTiers(trx, range);
      }),

    async getDiscountRangeById(storeId: string, id: string): Promise<DiscountRange | undefined> {
      const range = await ranges(db).find(storeId, id);
      return range && { ...range, tiers: (await tiersOf([range.id])).get(range.id) ?? [] };
    },

    /** Replaces the range's fields and, when `tiersChanged`, its whole tier list, in one transaction. */
    updateDiscountRange: (range: DiscountRange, tiersChanged: boolean) =>
      inTransaction(db, async (trx) => {
        const { tiers: _tiers, ...fields } = range;
        await ranges(trx).replace(fields);
        if (tiersChanged) await replaceTiers(trx, range);
      }),

    deleteDiscountRange: (storeId: string, id: string) =>
      inTransaction(db, async (trx) => {
        const owned = await ranges(trx).find(storeId, id);
        if (!owned) return false;
        await trx.deleteFrom('discount_range_tiers').where('discount_range_id', '=', id).execute();
        return ranges(trx).delete(storeId, id);
      }),

    /** Ordered by priority (the higher wins), then the newest first. */
    async listDiscountRanges(storeId: string, query: ListDiscountRangesQuery) {
      let filtered = db.selectFrom('discount_ranges').where('store_id', '=', storeId);
      if (query.active !== undefined) filtered = filtered.where('active', '=', flag.toColumn(query.active));
      const counted = await filtered.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
      const { offset, ...pagination } = pageOf(query, Number(counted?.n ?? 0));
      const rows = await filtered
        .selectAll()
        .orderBy('priority', 'desc')
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .limit(pagination.limit)
        .offset(offset)
        .execute();
      const tiers = await tiersOf(rows.map((row) => row.id));
      const records = ranges(db)
        .decodeAll(rows)
        .map((range) => ({ ...range, tiers: tiers.get(range.id) ?? [] }));
      return { records, pagination };
    },
  };
}
