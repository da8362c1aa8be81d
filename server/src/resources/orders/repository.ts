import type { Kysely, Selectable } from 'kysely';
import type { components, operations } from '../../../../generated/openapi.ts';
import { json, money, nullableMoney } from '../../db/column-codecs.ts';
import { FILTER_ONLY_EQUALS } from '../../db/filter-only-equals.ts';
import { inTransaction } from '../../db/in-transaction.ts';
import { ANSWERED_LATER_SQL } from '../../db/pg-answered-later.ts';
import { type StoredOf, storeTable } from '../../db/store-table.ts';
import { type CustomerRecord, upsertCustomer } from '../customers/repository.ts';
import type { Database } from '../index.ts';
import { ORDER_STATUS_LABELS } from './order-rules.ts';
import type { OrderItemsTable } from './table.ts';

type Schemas = components['schemas'];
export type Order = Schemas['Order'];
export type OrderStatus = Schemas['OrderStatus'];
type OrderItem = Schemas['OrderItem'];
type ListOrdersQuery = NonNullable<operations['listOrders']['parameters']['query']>;

/** An order line as stored: the read shape plus the product it came from (null for a free line). */
export interface OrderItemRecord extends OrderItem {
  productId: string | null;
}

/** An order as stored: the read shape without the derived `statusLabel`, with the lines' products. */
export interface OrderRecord extends Omit<Order, 'statusLabel' | 'items'> {
  items: OrderItemRecord[];
}

const orderColumns = {
  total: money,
  subtotal: money,
  discount: nullableMoney,
  customer: json<Schemas['OrderCustomer']>(),
  shipping_address: json<Schemas['ShippingAddress']>(),
  shipping: json<Schemas['OrderShipping']>(),
  tags: json<Schemas['OrderTags']>(),
};
type OrderRow = StoredOf<'orders', typeof orderColumns>;

/** The order read shape of every order response and event payload. */
export function orderOf({ items, ...order }: OrderRecord): Order {
  return {
    ...order,
    statusLabel: ORDER_STATUS_LABELS[order.status],
    items: items.map(({ productId: _productId, ...item }) => item),
  };
}

const rowOf = ({ items: _items, tracking, ...order }: OrderRecord): OrderRow => ({
  ...order,
  customerDocumentNumber: order.customer.documentNumber,
  trackingCode: tracking?.code ?? null,
  trackingUrl: tracking?.url ?? null,
  trackingStatus: tracking?.status ?? null,
  trackingStatusLabel: tracking?.statusLabel ?? null,
  trackingUpdatedAt: tracking?.updatedAt ?? null,
});

function recordOf(row: OrderRow, items: OrderItemRecord[]): OrderRecord {
  const { customerDocumentNumber: _document, trackingCode: code, trackingUrl: url, ...order } = row;
  const { trackingStatus: status, trackingStatusLabel: statusLabel, trackingUpdatedAt: updatedAt, ...rest } = order;
  // An order with no shipment yet has no tracking (all five columns null together).
  const tracking =
    code === null || url === null || status === null || statusLabel === null || updatedAt === null
      ? null
      : { code, url, status, statusLabel, updatedAt };
  return { ...rest, tracking, items };
}

const itemOf = (item: Selectable<OrderItemsTable>): OrderItemRecord => ({
  id: item.id,
  productId: item.product_id,
  variantId: item.variant_id,
  name: item.name,
  quantity: item.quantity,
  price: money.fromColumn(item.price),
  image: item.image,
});

/** Stored timestamps are ISO text in UTC: a bound given with another offset is compared in the same form. */
const utc = (dateTime: string): string => new Date(dateTime).toISOString();

/** The orders with their lines, in `position` order. */
async function withItems(db: Kysely<Database>, rows: OrderRow[]): Promise<OrderRecord[]> {
  if (rows.length === 0) return [];
  const items = await db
    .selectFrom('order_items')
    .selectAll()
    .where(
      'order_id',
      'in',
      rows.map((row) => row.id),
    )
    .orderBy('position')
    .execute();
  return rows.map((row) => recordOf(row, items.filter((item) => item.order_id === row.id).map(itemOf)));
}

export function ordersRepository(db: Kysely<Database>) {
  const orders = storeTable(db, 'orders', orderColumns);

  return {
    /**
     * Stores the order with its lines and upserts its customer by document, in one transaction (on PostgreSQL
     * sent without waiting: the customer's read answers for them). Answers whether the customer was new.
     */
    async createOrder(order: OrderRecord, customer: CustomerRecord): Promise<{ customerCreated: boolean }> {
      return inTransaction(db, async (trx) => {
        await storeTable(trx, 'orders', orderColumns).insertAnsweredLater(rowOf(order));
        await trx
          .insertInto('order_items')
          .values(
            order.items.map((item, position) => ({
              id: item.id,
              order_id: order.id,
              position,
              product_id: item.productId,
              variant_id: item.variantId,
              name: item.name,
              quantity: item.quantity,
              price: money.toColumn(item.price),
              image: item.image,
            })),
          )
          .modifyEnd(ANSWERED_LATER_SQL)
          .execute();
        return { customerCreated: await upsertCustomer(trx, customer) };
      });
    },

    async getOrderById(storeId: string, id: string): Promise<OrderRecord | undefined> {
      const row = await orders.find(storeId, id);
      return row && (await withItems(db, [row]))[0];
    },

    /** The store an order belongs to (createTrackingEvent addresses orders without a store header). */
    async orderOwnerStore(id: string): Promise<string | undefined> {
      const row = await db.selectFrom('orders').select('store_id').where('id', '=', id).executeTakeFirst();
      return row?.store_id;
    },

    /** Newest first; orders created in the same millisecond in id order. */
    async listOrders(storeId: string, query: ListOrdersQuery) {
      const { records, pagination } = await orders.page(
        storeId,
        query,
        (rows) => {
          let filtered = rows;
          if (query.status) filtered = filtered.where('status', '=', query.status);
          if (query.createdFrom) filtered = filtered.where('created_at', '>=', utc(query.createdFrom));
          if (query.createdTo) filtered = filtered.where('created_at', '<', utc(query.createdTo));
          return filtered;
        },
        'asc',
      );
      return { orders: (await withItems(db, records)).map(orderOf), pagination };
    },

    /**
     * Moves the order from `from` to `to` only if it is still in `from` (a concurrent change loses).
     * Answers whether the order moved.
     */
    async changeOrderStatus(
      storeId: string,
      id: string,
      change: { from: OrderStatus; to: OrderStatus; notes: string | null; updatedAt: string },
    ): Promise<boolean> {
      const result = await db
        .updateTable('orders')
        .set({ status: change.to, notes: change.notes, updated_at: change.updatedAt })
        .where('store_id', FILTER_ONLY_EQUALS, storeId)
        .where('id', '=', id)
        .where('status', '=', change.from)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}
