import type { Kysely, Selectable } from 'kysely';
import type { components } from '../../../generated/openapi.ts';
import type { Database, OrderBumpsTable } from '../db/schema.ts';
import {
  flag,
  flagColumn,
  json,
  jsonColumn,
  money,
  moneyColumn,
  nullableJson,
  nullableJsonColumn,
  nullableMoney,
  nullableMoneyColumn,
} from './columns.ts';
import { type PageRequest, pageOf } from './pagination.ts';

export type OrderBump = components['schemas']['OrderBump'];

function toRow(bump: OrderBump): Selectable<OrderBumpsTable> {
  return {
    id: bump.id,
    store_id: bump.storeId,
    name: bump.name,
    description: bump.description,
    type: bump.type,
    status: bump.status,
    product_id: bump.productId,
    product_variant_id: bump.productVariantId,
    discount_type: bump.discountType,
    discount_amount: moneyColumn(bump.discountAmount),
    title: bump.title,
    subtitle: bump.subtitle,
    image: bump.image,
    price: moneyColumn(bump.price),
    discounted_price: moneyColumn(bump.discountedPrice),
    auto_add: flagColumn(bump.autoAdd),
    required: flagColumn(bump.required),
    max_quantity: bump.maxQuantity,
    starts_at: bump.startsAt,
    ends_at: bump.endsAt,
    trigger_product_ids: jsonColumn(bump.triggerProductIds),
    target_category_ids: jsonColumn(bump.targetCategoryIds),
    min_cart_total: nullableMoneyColumn(bump.minCartTotal),
    max_cart_total: nullableMoneyColumn(bump.maxCartTotal),
    position: bump.position,
    display_order: bump.displayOrder,
    is_standalone: flagColumn(bump.isStandalone),
    standalone_settings: nullableJsonColumn(bump.standaloneSettings),
    button_text: bump.buttonText,
    created_at: bump.createdAt,
    updated_at: bump.updatedAt,
  };
}

function toOrderBump(row: Selectable<OrderBumpsTable>): OrderBump {
  return {
    id: row.id,
    storeId: row.store_id,
    name: row.name,
    description: row.description,
    type: row.type as OrderBump['type'],
    status: row.status as OrderBump['status'],
    productId: row.product_id,
    productVariantId: row.product_variant_id,
    discountType: row.discount_type as OrderBump['discountType'],
    discountAmount: money(row.discount_amount),
    title: row.title,
    subtitle: row.subtitle,
    image: row.image,
    price: money(row.price),
    discountedPrice: money(row.discounted_price),
    autoAdd: flag(row.auto_add),
    required: flag(row.required),
    maxQuantity: row.max_quantity,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    triggerProductIds: json(row.trigger_product_ids),
    targetCategoryIds: json(row.target_category_ids),
    minCartTotal: nullableMoney(row.min_cart_total),
    maxCartTotal: nullableMoney(row.max_cart_total),
    position: row.position,
    displayOrder: row.display_order,
    isStandalone: flag(row.is_standalone),
    standaloneSettings: nullableJson(row.standalone_settings),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    buttonText: row.button_text,
  };
}

export function orderBumpsRepository(db: Kysely<Database>) {
  return {
    async insert(bump: OrderBump): Promise<void> {
      await db.insertInto('order_bumps').values(toRow(bump)).execute();
    },

    async find(storeId: string, id: string): Promise<OrderBump | undefined> {
      const row = await db
        .selectFrom('order_bumps')
        .selectAll()
        .where('store_id', '=', storeId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row && toOrderBump(row);
    },

    async replace(bump: OrderBump): Promise<void> {
      const { id, store_id, created_at: _created, ...changes } = toRow(bump);
      await db.updateTable('order_bumps').set(changes).where('store_id', '=', store_id).where('id', '=', id).execute();
    },

    async delete(storeId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom('order_bumps')
        .where('store_id', '=', storeId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    /** Ordered as the checkout shows them: position, then display order, then the newest first. */
    async list(storeId: string, status: OrderBump['status'] | undefined, request: PageRequest) {
      let query = db.selectFrom('order_bumps').where('store_id', '=', storeId);
      if (status) query = query.where('status', '=', status);
      const counted = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
      const page = pageOf(request, Number(counted?.n ?? 0));
      const rows = await query
        .selectAll()
        .orderBy('position')
        .orderBy('display_order')
        .orderBy('created_at', 'desc')
        .orderBy('id')
        .limit(page.limit)
        .offset(page.offset)
        .execute();
      return { orderBumps: rows.map(toOrderBump), page };
    },
  };
}

export type OrderBumpsRepository = ReturnType<typeof orderBumpsRepository>;
