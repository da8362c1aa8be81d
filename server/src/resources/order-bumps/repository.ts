import type { Kysely } from 'kysely';
import type { components, operations } from '../../../../generated/openapi.ts';
import { flag, json, money, nullableJson, nullableMoney } from '../../db/column-codecs.ts';
import { storeTable } from '../../db/store-table.ts';
import type { Database } from '../index.ts';

export type OrderBump = components['schemas']['OrderBump'];
type ListOrderBumpsQuery = NonNullable<operations['listOrderBumps']['parameters']['query']>;

export function orderBumpsRepository(db: Kysely<Database>) {
  const orderBumps = storeTable(db, 'order_bumps', {
    discount_amount: money,
    price: money,
    discounted_price: money,
    min_cart_total: nullableMoney,
    max_cart_total: nullableMoney,
    auto_add: flag,
    required: flag,
    is_standalone: flag,
    trigger_product_ids: json<string[]>(),
    target_category_ids: json<string[]>(),
    standalone_settings: nullableJson<NonNullable<OrderBump['standaloneSettings']>>(),
  });
  return {
    ...orderBumps.operations('createOrderBump', 'getOrderBumpById', 'updateOrderBump', 'deleteOrderBump'),
    /** Ordered as the checkout shows them: position, then display order, then the newest first. */
    listOrderBumps: orderBumps.list('orderBumps', (q: ListOrderBumpsQuery) => ({ status: q.status }), {
      order: [
        ['position', 'asc'],
        ['display_order', 'asc'],
        ['created_at', 'desc'],
        ['id', 'asc'],
      ],
    }),
  };
}
