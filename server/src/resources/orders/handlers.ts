import type { components } from '../../../../generated/openapi.ts';
import { isObject } from '../../../../lib/contract.ts';
import { contractText, contractValue } from '../../contract.ts';
import { now } from '../../domain/clock.ts';
import { newId } from '../../domain/new-id.ts';
import { lineTotal, toCents } from '../../domain/pricing.ts';
import { ApiError, caseMessage, notFound } from '../../errors.ts';
import { ruleError, ruleViolation } from '../../rules.ts';
import type { CustomerRecord } from '../customers/repository.ts';
import { type Handlers, ok } from '../operation.ts';
import { productLines } from '../products/product-lines.ts';
import {
  allowedStatuses,
  canMove,
  newTrackingCode,
  ORDER_STATUS_LABELS,
  STATUS_EVENTS,
  TRACKING_STATUS_LABELS,
  trackingUrl,
} from './order-rules.ts';
import { type OrderItemRecord, type OrderRecord, type OrderStatus, orderOf } from './repository.ts';

type Schemas = components['schemas'];
type AdminOrderCreate = Schemas['AdminOrderCreate'];

const ORDER_ITEM = '#/components/schemas/AdminOrderItem';
type LineDefaults = Required<Pick<Schemas['AdminOrderItem'], 'name' | 'price' | 'image'>>;
const isLineDefaults = (value: unknown): value is LineDefaults =>
  isObject(value) &&
  typeof value.name === 'string' &&
  typeof value.price === 'number' &&
  typeof value.image === 'string';
/** What a line without a product is not given: the contract's `AdminOrderItem` › `x-line-defaults`. */
const LINE_DEFAULTS = contractValue(`${ORDER_ITEM}/x-line-defaults`, isLineDefaults, 'name, price and image');
/** The image of a line whose product has none (the order read shape requires one): `x-no-image`. */
const NO_IMAGE = contractText(`${ORDER_ITEM}/x-no-image`);

const statusChangeError = (from: OrderStatus, to: OrderStatus) =>
  new ApiError('INVALID_STATUS_TRANSITION', {
    message: caseMessage('INVALID_STATUS_TRANSITION', { from: ORDER_STATUS_LABELS[from], to: ORDER_STATUS_LABELS[to] }),
  });

/** A dotted tag id segment: `PAC` → `pac`, `Sedex 10` → `sedex_10`. */
const tagSegment = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');

function defaultTags(paymentMethod: string, shipping: Schemas['OrderShipping']): Schemas['OrderTags'] {
  const shippingTag = tagSegment(shipping.name);
  return {
    ids: [`payment.${paymentMethod}`, ...(shippingTag ? [`shipping.${shippingTag}`] : [])],
    invoicing: [],
    delivery: [],
    custom: [],
  };
}

async function orderItems(
  deps: Parameters<typeof productLines>[0],
  storeId: string,
  body: AdminOrderCreate,
): Promise<OrderItemRecord[]> {
  const requested = body.items;
  const lines = await productLines(deps, storeId, requested);
  return requested.map((item, index) => {
    const line = lines[index];
    return {
      id: newId(),
      productId: line?.productId ?? null,
      variantId: item.variantId ?? line?.variantId ?? null,
      name: item.name ?? line?.name ?? LINE_DEFAULTS.name,
      quantity: item.quantity,
      price: item.price ?? line?.price ?? LINE_DEFAULTS.price,
      image: item.image ?? (line ? (line.image ?? NO_IMAGE) : LINE_DEFAULTS.image),
    };
  });
}

export const orderHandlers = {
  async listOrders({ storeId, query }, { repositories }) {
    return { status: 200, body: ok(await repositories.orders.listOrders(storeId, query)) };
  },

  async getOrderById({ storeId, path }, { repositories }) {
    const order = await repositories.orders.getOrderById(storeId, path.orderId);
    if (!order) throw notFound();
    return { status: 200, body: ok({ order: orderOf(order) }) };
  },

  async getOrderStatus({ storeId, path }, { repositories }) {
    const order = await repositories.orders.getOrderById(storeId, path.orderId);
    if (!order) throw notFound();
    return {
      status: 200,
      body: ok({
        orderId: order.id,
        currentStatus: order.status,
        currentStatusLabel: ORDER_STATUS_LABELS[order.status],
        allowedStatuses: allowedStatuses(order.status),
      }),
    };
  },

  async changeOrderStatus({ storeId, path, body }, { repositories, events }) {
    const current = await repositories.orders.getOrderById(storeId, path.orderId);
    if (!current) throw notFound();
    if (!canMove(current.status, body.status)) throw statusChangeError(current.status, body.status);
    const notes =
      body.note === undefined ? current.notes : current.notes ? `${current.notes}\n${body.note}` : body.note;
    const updatedAt = now();
    const moved = await repositories.orders.changeOrderStatus(storeId, current.id, {
      from: current.status,
      to: body.status,
      notes,
      updatedAt,
    });
    if (!moved) {
      // Another request changed the status first: judge the request against the status it left.
      const fresh = await repositories.orders.getOrderById(storeId, current.id);
      if (!fresh) throw notFound();
      throw statusChangeError(fresh.status, body.status);
    }
    const order = orderOf({ ...current, status: body.status, notes, updatedAt });
    const event = STATUS_EVENTS[body.status];
    if (event) await events.emit(storeId, event, { order });
    return { status: 200, body: ok({ order }) };
  },

  async listOrderTrackingEvents({ storeId, path, query }, { repositories }) {
    const order = await repositories.orders.getOrderById(storeId, path.orderId);
    if (!order) throw notFound();
    return {
      status: 200,
      body: ok(await repositories.trackingEvents.listOrderTrackingEvents(storeId, order.id, query)),
    };
  },

  async createOrder({ path, body }, deps) {
    const { repositories, events } = deps;
    const store = await repositories.stores.find(path.storeId.toLowerCase());
    if (!store) throw notFound();
    const { customer, shipping } = body;
    const items = await orderItems(deps, store.id, body);
    const discount = body.discount ?? null;
    const subtotal = lineTotal(items);
    const totalCents = toCents(subtotal) + toCents(shipping.price) - toCents(discount ?? 0);
    if (totalCents < 0) {
      throw ruleError(ruleViolation('order-discount-within-total', 'discount'));
    }
    const { paymentMethod } = body;
    const at = now();
    const record: OrderRecord = {
      id: newId(),
      storeId: store.id,
      status: body.status,
      total: totalCents / 100,
      subtotal,
      discount,
      currency: store.currency,
      paymentMethod,
      installments: body.installments,
      notes: body.notes ?? null,
      customer,
      shippingAddress: body.shippingAddress,
      shipping,
      tracking: null,
      items,
      tags: body.tags ?? defaultTags(paymentMethod, shipping),
      createdAt: at,
      updatedAt: at,
    };
    const buyer: CustomerRecord = {
      id: newId(),
      storeId: store.id,
      name: customer.name,
      email: customer.email,
      phone: customer.phone === '' ? null : customer.phone,
      documentType: customer.documentType as CustomerRecord['documentType'],
      documentNumber: customer.documentNumber,
      createdAt: at,
      updatedAt: at,
    };
    const { customerCreated } = await repositories.orders.createOrder(record, buyer);
    const order = orderOf(record);
    if (customerCreated) {
      const [created] = await repositories.customers.withStats(store.id, [buyer]);
      await events.emit(store.id, 'CUSTOMER_CREATED', { customer: created });
    }
    await events.emit(store.id, 'ORDER_CREATED', { order });
    if (order.status === 'PAID') await events.emit(store.id, 'ORDER_PAID', { order });
    return { status: 201, body: ok({ order }) };
  },

  async createTrackingEvent({ path, body }, { repositories }) {
    const storeId = await repositories.orders.orderOwnerStore(path.orderId);
    const order = storeId && (await repositories.orders.getOrderById(storeId, path.orderId));
    if (!storeId || !order) throw notFound();
    const at = now();
    const label = TRACKING_STATUS_LABELS[body.status];
    const occurredAt = body.occurredAt ?? at;
    const event = await repositories.trackingEvents.createTrackingEvent(
      storeId,
      order.id,
      {
        id: newId(),
        status: body.status,
        label,
        createdAt: at,
        occurredAt,
        locationLabel: body.locationLabel,
        latitude: body.latitude,
        longitude: body.longitude,
        carrier: body.carrier,
        source: body.source,
        provider: body.provider,
        replayed: false,
        retryCount: 0,
        processingState: 'processed',
      },
      {
        given: body.trackingCode,
        generated: newTrackingCode(),
        tracking: (code) => ({
          code,
          url: trackingUrl(code),
          status: body.status,
          statusLabel: label,
          updatedAt: occurredAt,
        }),
      },
    );
    return { status: 201, body: ok({ event }) };
  },
} satisfies Partial<Handlers>;
