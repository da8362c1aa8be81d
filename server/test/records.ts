import type { components } from '../../generated/openapi.ts';

/** The `params` of a call whose path names one record by `name`. */
const pathTo =
  <Name extends string>(name: Name) =>
  (id: string) => ({ params: { path: { [name]: id } as Record<Name, string> } });

export const atAutomationId = pathTo('automationId');
export const atCategoryId = pathTo('categoryId');
export const atGiftId = pathTo('giftId');
export const atKitId = pathTo('kitId');
export const atMetatagId = pathTo('metatagId');
export const atOrderBumpId = pathTo('orderBumpId');
export const atOrderId = pathTo('orderId');
export const atUpsellId = pathTo('upsellId');

/** The contract's schemas the resource tests build bodies and records of. */
export type AbandonedCart = components['schemas']['AbandonedCart'];
export type AdminAbandonedCartCreate = components['schemas']['AdminAbandonedCartCreate'];
export type AdminLeadCreate = components['schemas']['AdminLeadCreate'];
export type AdminOrderCreate = components['schemas']['AdminOrderCreate'];
export type AutomationValidate = components['schemas']['AutomationValidate'];
export type CouponCreate = components['schemas']['CouponCreate'];
export type CustomerCreate = components['schemas']['CustomerCreate'];
export type DiscountRangeCreate = components['schemas']['DiscountRangeCreate'];
export type EventName = components['schemas']['WebhookEventName'];
export type GiftCreate = components['schemas']['GiftCreate'];
export type KitCreate = components['schemas']['KitCreate'];
export type Lead = components['schemas']['Lead'];
export type MetatagCreate = components['schemas']['MetatagCreate'];
export type Order = components['schemas']['Order'];
export type OrderBumpCreate = components['schemas']['OrderBumpCreate'];
export type OrderStatus = components['schemas']['OrderStatus'];
export type PaymentDiscountCreate = components['schemas']['PaymentDiscountCreate'];
export type PaymentLinkCreate = components['schemas']['PaymentLinkCreate'];
export type ProductCreate = components['schemas']['ProductCreate'];
export type Steps = components['schemas']['Steps'];
export type StoreEventCreate = components['schemas']['StoreEventCreate'];
export type TemplateCreate = components['schemas']['TemplateCreate'];
export type TrackingStatus = components['schemas']['TrackingStatus'];
export type TrackingEventCreate = components['schemas']['TrackingEventCreate'];
export type TriggerEvent = components['schemas']['TriggerEvent'];
export type UpsellCreate = components['schemas']['UpsellCreate'];
export type VariantCreate = components['schemas']['VariantCreate'];
export type WebhookCreate = components['schemas']['WebhookCreate'];
