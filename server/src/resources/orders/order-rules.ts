// The rules of an order's life that are neither HTTP nor storage: status labels and allowed moves, the event of
// each move, tracking labels and pages (all read from the contract), and tracking codes. Only the orders folder uses them (money
// arithmetic is domain/pricing.ts).
import {
  type components,
  orderStatusValues,
  trackingStatusValues,
  webhookEventNameValues,
} from '../../../../generated/openapi.ts';
import { contractText, enumTable, isText } from '../../contract.ts';

type OrderStatus = components['schemas']['OrderStatus'];
type WebhookEventName = components['schemas']['WebhookEventName'];
type StatusOption = components['schemas']['StatusOption'];

const isStatuses = (entry: unknown): entry is OrderStatus[] =>
  Array.isArray(entry) && entry.every((status) => (orderStatusValues as readonly unknown[]).includes(status));

/** Each order status's Portuguese label: the contract's `OrderStatus` › `x-labels`. */
export const ORDER_STATUS_LABELS = enumTable('OrderStatus', 'x-labels', orderStatusValues, isText);

/**
 * The statuses a manual change may move an order to, in the order GET status lists them: the contract's
 * `OrderStatus` › `x-manual-transitions` (from PAID documented, the other rows inferred).
 */
const TRANSITIONS = enumTable('OrderStatus', 'x-manual-transitions', orderStatusValues, isStatuses);

export const allowedStatuses = (status: OrderStatus): StatusOption[] =>
  TRANSITIONS[status].map((value) => ({ value, label: ORDER_STATUS_LABELS[value] }));

export const canMove = (from: OrderStatus, to: OrderStatus): boolean => TRANSITIONS[from].includes(to);

/** The webhook event a change to a status emits: the contract's `ORDER_<status>` event, where it names one. */
export const STATUS_EVENTS = Object.fromEntries(
  orderStatusValues.map((status) => [status, webhookEventNameValues.find((event) => event === `ORDER_${status}`)]),
) as Record<OrderStatus, WebhookEventName | undefined>;

/** Each tracking status's Portuguese label: the contract's `TrackingStatus` › `x-labels`. */
export const TRACKING_STATUS_LABELS = enumTable('TrackingStatus', 'x-labels', trackingStatusValues, isText);

/** The carrier's tracking page: the contract's `OrderTracking` › `url` › `x-url-template`. */
const TRACKING_URL_TEMPLATE = contractText('#/components/schemas/OrderTracking/properties/url/x-url-template');

export const trackingUrl = (code: string): string => TRACKING_URL_TEMPLATE.replace('{code}', encodeURIComponent(code));

/** A code in the Correios form the contract's `TrackingEventCreate` › `trackingCode` names: BR, nine digits, BR. */
export function newTrackingCode(): string {
  const digits = Array.from({ length: 9 }, () => Math.floor(Math.random() * 10)).join('');
  return `BR${digits}BR`;
}
