import type { Kysely, Selectable } from 'kysely';
import type { components } from '../../../generated/openapi.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database, OrderItemsTable, OrdersTable } from '../db/schema.ts';
import { ORDER_STATUS_LABELS } from '../domain/orders.ts';
import { type CustomerRecord, upsertCustomer } from '../resources/customers/repository.ts';
import { json, jsonColumn, money, moneyColumn, nullableMoney, nullableMoneyColumn } from './columns.ts';
import { newestFirstPage, type PageRequest } from './pagination.ts';

type Schemas = components['schemas'];
export type Order = Schemas['Order'];
export type OrderStatus = Schemas['OrderStatus'];
type OrderItem = Schemas['OrderItem'];

/** An order line as stored: the read shape plus the product it came from (null for a free line). */
export interface OrderItemRecord extends OrderItem {
  productId: string | null;
}

/** An order as stored: the read shape without the derived `statusLabel`, with the lines' products. */
export interface OrderRecord extends Omit<Order, 'statusLabel' | 'items'> {
  items: OrderItemRecord[];
}

export interface OrderFilters {
  status?: OrderStatus | undefined;
  createdFrom?: string | undefined;
  createdTo?: string | undefined;
}

/** The order read shape of every order response and event payload. */
export function orderOf({ items, ...order }: OrderRecord): Order {
  return {
    ...order,
    statusLabel: ORDER_STATUS_LABELS[order.status],
    items: items.map(({ productId: _productId, ...item }) => item),
  };
}

function toRow(order: OrderRecord): Selectable<OrdersTable> {
  return {
    id: order.id,
    store_id: order.storeId,
    status: order.status,
    total: moneyColumn(order.total),
    subtotal: moneyColumn(order.subtotal),
    discount: nullableMoneyColumn(order.discount),
    currency: order.currency,
    payment_method: order.paymentMethod,
    installments: order.installments,
    notes: order.notes,
    customer: jsonColumn(order.customer),
    customer_document_number: order.customer.documentNumber,
    shipping_address: jsonColumn(order.shippingAddress),
    shipping: jsonColumn(order.shipping),
    tracking_code: order.tracking?.code ?? null,
    tracking_url: order.tracking?.url ?? null,
    tracking_status: order.tracking?.status ?? null,
    tracking_status_label: order.tracking?.statusLabel ?? null,
    tracking_updated_at: order.tracking?.updatedAt ?? null,
    tags: jsonColumn(order.tags),
    created_at: order.createdAt,
    updated_at: order.updatedAt,
  };
}

function toRecord(row: Selectable<OrdersTable>, items: Selectable<OrderItemsTable>[]): OrderRecord {
  return {
    id: row.id,
    storeId: row.store_id,
    status: row.status as OrderStatus,
    total: money(row.total),
    subtotal: money(row.subtotal),
    discount: nullableMoney(row.discount),
    currency: row.currency,
    paymentMethod: row.payment_method,
    installments: row.installments,
    notes: row.notes,
    customer: json(row.customer),
    shippingAddress: json(row.shipping_address),
    shipping: json(row.shipping),
    // An order with no shipment yet has no tracking (all five columns null together).
    tracking:
      row.tracking_code === null ||
      row.tracking_url === null ||
      row.tracking_status === null ||
      row.tracking_status_label === null ||
      row.tracking_updated_at === null
        ? null
        : {
            code: row.tracking_code,
            url: row.tracking_url,
            status: row.tracking_status,
            statusLabel: row.tracking_status_label,
            updatedAt: row.tracking_updated_at,
          },
    items: items
      .sort((a, b) => a.position - b.position)
      .map((item) => ({
        id: item.id,
        productId: item.product_id,
        variantId: item.variant_id,
        name: item.name,
        quantity: item.quantity,
        price: money(item.price),
        image: item.image,
      })),
    tags: json(row.tags),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function ordersRepository(db: Kysely<Database>) {
  async function withItems(rows: Selectable<OrdersTable>[]): Promise<OrderRecord[]> {
    if (rows.length === 0) return [];
    const items = await db
      .selectFrom('order_items')
      .selectAll()
      .where(
        'order_id',
        'in',
        rows.map((row) => row.id),
      )
      .execute();
    return rows.map((row) =>
      toRecord(
        row,
        items.filter((item) => item.order_id === row.id),
      ),
    );
  }

  return {
    /**
     * Stores the order with its lines and upserts its customer by document, all in one transaction.
     * Answers whether the customer was new.
     */
    async create(order: OrderRecord, customer: CustomerRecord): Promise<{ customerCreated: boolean }> {
      return inTransaction(db, async (trx) => {
        await trx.insertInto('orders').values(toRow(order)).execute();
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
              price: moneyColumn(item.price),
              image: item.image,
            })),
          )
          .execute();
        return { customerCreated: await upsertCustomer(trx, customer) };
      });
    },

    async find(storeId: string, id: string): Promise<OrderRecord | undefined> {
      const row = await db
        .selectFrom('orders')
        .selectAll()
        .where('store_id', '=', storeId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row && (await withItems([row]))[0];
    },

    /** The store an order belongs to (the admin API addresses orders without a store header). */
    async ownerStore(id: string): Promise<string | undefined> {
      const row = await db.selectFrom('orders').select('store_id').where('id', '=', id).executeTakeFirst();
      return row?.store_id;
    },

    async list(storeId: string, filters: OrderFilters, request: PageRequest) {
      let query = db.selectFrom('orders').where('store_id', '=', storeId);
      if (filters.status) query = query.where('status', '=', filters.status);
      if (filters.createdFrom) query = query.where('created_at', '>=', filters.createdFrom);
      if (filters.createdTo) query = query.where('created_at', '<', filters.createdTo);
      const { rows, pagination: page } = await newestFirstPage(query, request, 'asc');
      return { records: await withItems(rows), page };
    },

    /**
     * Moves the order from `from` to `to` only if it is still in `from` (a concurrent change loses).
     * Answers whether the order moved.
     */
    async changeStatus(
      storeId: string,
      id: string,
      change: { from: OrderStatus; to: OrderStatus; notes: string | null; updatedAt: string },
    ): Promise<boolean> {
      const result = await db
        .updateTable('orders')
        .set({ status: change.to, notes: change.notes, updated_at: change.updatedAt })
        .where('store_id', '=', storeId)
        .where('id', '=', id)
        .where('status', '=', change.from)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}

export type OrdersRepository = ReturnType<typeof ordersRepository>;
