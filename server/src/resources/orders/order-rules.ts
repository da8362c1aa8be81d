// The rules of an order's life that are neither HTTP nor storage: status labels and allowed moves, the event of
// each move, tracking labels and codes. Only the orders folder uses them (money arithmetic is domain/pricing.ts).
import type { components } from '../../../../generated/openapi.ts';

type OrderStatus = components['schemas']['OrderStatus'];
type TrackingStatus = components['schemas']['TrackingStatus'];
type StatusOption = components['schemas']['StatusOption'];

/** Portuguese labels of the order statuses (documented for PAID and its targets; PENDING inferred). */
export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  PENDING: 'Aguardando pagamento',
  PAID: 'Pago',
  SHIPPED: 'Enviado',
  DELIVERED: 'Entregue',
  CANCELLED: 'Cancelado',
  REFUNDED: 'Reembolsado',
};

/**
 * The statuses the panel allows to apply manually, in the order GET status lists them. From PAID it is
 * documented (section 3); the other rows are inferred. CANCELLED and REFUNDED are final.
 */
const TRANSITIONS: Record<OrderStatus, OrderStatus[]> = {
  PENDING: ['PAID', 'CANCELLED'],
  PAID: ['SHIPPED', 'DELIVERED', 'CANCELLED', 'REFUNDED'],
  SHIPPED: ['DELIVERED', 'REFUNDED'],
  DELIVERED: ['REFUNDED'],
  CANCELLED: [],
  REFUNDED: [],
};

export const allowedStatuses = (status: OrderStatus): StatusOption[] =>
  TRANSITIONS[status].map((value) => ({ value, label: ORDER_STATUS_LABELS[value] }));

export const canMove = (from: OrderStatus, to: OrderStatus): boolean => TRANSITIONS[from].includes(to);

/** The webhook event a status change emits (every target status has one). */
export const STATUS_EVENTS: Record<OrderStatus, string | undefined> = {
  PENDING: undefined,
  PAID: 'ORDER_PAID',
  SHIPPED: 'ORDER_SHIPPED',
  DELIVERED: 'ORDER_DELIVERED',
  CANCELLED: 'ORDER_CANCELLED',
  REFUNDED: 'ORDER_REFUNDED',
};

/** Portuguese labels of the tracking statuses (label_generated, posted, in_transit documented; others inferred). */
export const TRACKING_STATUS_LABELS: Record<TrackingStatus, string> = {
  label_generated: 'Etiqueta gerada',
  posted: 'Postado',
  in_transit: 'Em trânsito',
  out_for_delivery: 'Saiu para entrega',
  delivered: 'Entregue',
  delivery_failed: 'Falha na entrega',
  returned: 'Devolvido',
};

export const trackingUrl = (code: string): string =>
  `https://rastreamento.correios.com.br/app/index.php?objeto=${encodeURIComponent(code)}`;

/** A Correios-style object code: two letters, nine digits, BR. */
export function newTrackingCode(): string {
  const digits = Array.from({ length: 9 }, () => Math.floor(Math.random() * 10)).join('');
  return `BR${digits}BR`;
}
