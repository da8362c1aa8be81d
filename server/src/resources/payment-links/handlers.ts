import type { components } from '../../../../generated/openapi.ts';
import { reason } from '../../../../lib/reasons.ts';
import { firstCharacters } from '../../../../lib/storable-text.ts';
import { contractCount, contractText, contractValue, isNumber } from '../../contract.ts';
import { now } from '../../domain/clock.ts';
import { newId } from '../../domain/new-id.ts';
import { discountCents, fromCents, toCents } from '../../domain/pricing.ts';
import { detail, type ErrorDetail, found, referenceNotFound } from '../../errors.ts';
import { ruleError, ruleViolation } from '../../rules.ts';
import type { Coupon } from '../coupons/repository.ts';
import { type Deps, type Handlers, ok } from '../operation.ts';
import type { ProductRecord, Variant } from '../products/repository.ts';
import type { PaymentLink, PaymentLinkRecord } from './repository.ts';

type PaymentLinkCreate = components['schemas']['PaymentLinkCreate'];
type LinkItem = PaymentLink['items'][number];

const LINK = '#/components/schemas/PaymentLink/properties';
/** The hosted payment page of a link: the contract's `PaymentLink` › `url` › `x-url-template`. */
const PAYMENT_PAGE = contractText(`${LINK}/url/x-url-template`);
/** The largest amount of money, a link's subtotal included: the contract's `Money` › `maximum`. */
const MONEY_MAX = contractValue('#/components/schemas/Money/maximum', isNumber, 'amount');
/** The longest name of a link's line (the contract's `maxLength`, in code points). */
const ITEM_NAME_LENGTH = contractCount(`${LINK}/items/items/properties/name/maxLength`);

/** The read shape: the derived `url`, and EXPIRED once an ACTIVE link's `expiresAt` has passed. */
function linkOf(record: PaymentLinkRecord, at = now()): PaymentLink {
  const { couponId: _coupon, customer: _customer, successUrl: _success, cancelUrl: _cancel, ...link } = record;
  const status = link.status === 'ACTIVE' && link.expiresAt <= at ? 'EXPIRED' : link.status;
  return { ...link, url: PAYMENT_PAGE.replace('{id}', link.id), status };
}

/**
 * Prices every cart line from the store's catalog: the variant's price for a variant, else the product's
 * promotional price when it has one, else its price. Unknown (or another store's) ids are 422 naming each path.
 */
async function priceItems({ repositories }: Deps, storeId: string, items: PaymentLinkCreate['cart']['items']) {
  const products = new Map<string, ProductRecord | undefined>();
  const variants = new Map<string, Variant[]>();
  const priced: LinkItem[] = [];
  const missing: ErrorDetail[] = [];
  for (const [index, item] of items.entries()) {
    if (!products.has(item.productId))
      products.set(item.productId, await repositories.products.getProductById(storeId, item.productId));
    const product = products.get(item.productId);
    if (!product) {
      missing.push(
        detail('body', `cart.items.${index}.productId`, reason('product-not-found', { id: item.productId })),
      );
      continue;
    }
    const variantId = item.variantId ?? null;
    if (variantId === null) {
      priced.push({
        productId: product.id,
        variantId: null,
        name: product.name,
        quantity: item.quantity,
        price: product.discountedPrice ?? product.price,
      });
      continue;
    }
    if (!variants.has(product.id)) variants.set(product.id, await repositories.products.productVariants(product.id));
    const variant = variants.get(product.id)?.find((candidate) => candidate.id === variantId);
    if (!variant) {
      missing.push(
        detail('body', `cart.items.${index}.variantId`, reason('variant-not-in-product', { id: variantId })),
      );
      continue;
    }
    priced.push({
      productId: product.id,
      variantId: variant.id,
      name: firstCharacters(`${product.name} - ${variant.title}`, ITEM_NAME_LENGTH),
      quantity: item.quantity,
      price: variant.price,
    });
  }
  if (missing.length > 0) throw referenceNotFound(missing);
  return priced;
}

/** Why the coupon cannot be applied to a cart of `subtotalCents` right now, or null when it can. */
function couponRefusal(coupon: Coupon | undefined, subtotalCents: number, at: string): string | null {
  if (!coupon) return reason('coupon-not-found');
  if (coupon.status !== 'ACTIVE') return reason('coupon-inactive');
  if (coupon.startsAt !== null && Date.parse(coupon.startsAt) > Date.parse(at)) return reason('coupon-not-yet-valid');
  if (coupon.endsAt !== null && Date.parse(coupon.endsAt) <= Date.parse(at)) return reason('coupon-expired');
  if (coupon.maxUses !== null && coupon.usedCount >= coupon.maxUses) return reason('coupon-used-up');
  if (coupon.minCartTotal !== null && subtotalCents < toCents(coupon.minCartTotal)) {
    return reason('coupon-below-minimum', { minimum: coupon.minCartTotal });
  }
  return null;
}

export const checkoutHandlers = {
  async createPaymentLink({ storeId, body }, deps) {
    const { repositories } = deps;
    const customer = body.customer ?? null;
    const items = await priceItems(deps, storeId, body.cart.items);
    const subtotalCents = items.reduce((sum, item) => sum + toCents(item.price) * item.quantity, 0);
    if (subtotalCents > toCents(MONEY_MAX)) {
      throw ruleError(ruleViolation('payment-link-subtotal-cap', 'cart.items', { max: MONEY_MAX }));
    }

    const at = now();
    let coupon: Coupon | undefined;
    let discount = 0;
    const couponCode = body.cart.couponCode ?? null;
    if (couponCode !== null) {
      coupon = await repositories.coupons.couponByCode(storeId, couponCode.trim().toUpperCase());
      const refusal = couponRefusal(coupon, subtotalCents, at);
      if (refusal !== null || !coupon) {
        throw referenceNotFound([detail('body', 'cart.couponCode', refusal ?? reason('coupon-not-found'))]);
      }
      discount = discountCents(subtotalCents, coupon.discountType, coupon.discountAmount);
    }

    // The store exists: authentication let the request address it.
    const store = found(await repositories.stores.find(storeId));
    const record: PaymentLinkRecord = {
      id: newId(),
      storeId,
      status: 'ACTIVE',
      items,
      subtotal: fromCents(subtotalCents),
      discount: fromCents(discount),
      total: fromCents(subtotalCents - discount),
      currency: store.currency,
      expiresAt: new Date(Date.parse(at) + body.expiresInMinutes * 60_000).toISOString(),
      createdAt: at,
      updatedAt: at,
      couponId: coupon?.id ?? null,
      customer,
      successUrl: body.successUrl ?? null,
      cancelUrl: body.cancelUrl ?? null,
    };
    await repositories.paymentLinks.createPaymentLink(record);
    return { status: 201, body: ok({ paymentLink: linkOf(record, at) }) };
  },

  async getPaymentLinkById({ storeId, path }, { repositories }) {
    const record = found(await repositories.paymentLinks.getPaymentLinkById(storeId, path.paymentLinkId));
    return { status: 200, body: ok({ paymentLink: linkOf(record) }) };
  },
} satisfies Partial<Handlers>;
