import { now } from '../../domain/clock.ts';
import { newId } from '../../domain/new-id.ts';
import { lineTotal } from '../../domain/pricing.ts';
import { found } from '../../errors.ts';
import { plainHandlers } from '../crud-handlers.ts';
import { type Handlers, ok } from '../operation.ts';
import { productLines } from '../products/product-lines.ts';
import type { AbandonedCart } from './repository.ts';

/** The checkout page that reopens a cart, addressed by the cart id. */
const recoveryUrl = (cartId: string): string => `https://checkout.example.com/recuperar/${cartId}`;

export const abandonedCartHandlers = {
  ...plainHandlers('abandonedCarts', 'abandonedCart', { getAbandonedCartById: 'get' }),

  async listAbandonedCarts({ storeId, query }, { repositories }) {
    const { records, pagination } = await repositories.abandonedCarts.listAbandonedCarts(storeId, query);
    return { status: 200, body: ok({ abandonedCarts: records, pagination }) };
  },

  async createAbandonedCart({ path, body }, deps) {
    const { repositories, events } = deps;
    const store = found(await repositories.stores.find(path.storeId.toLowerCase()));
    const lines = await productLines(deps, store.id, body.items);
    const items = body.items.map((item, index) => {
      const line = lines[index];
      // Every cart item names a product, so every line was resolved (or productLines threw 422).
      if (!line) throw new Error(`cart item ${index} has no product line`);
      return {
        productId: line.productId,
        variantId: line.variantId,
        name: line.name,
        quantity: item.quantity,
        price: line.price,
        image: line.image,
      };
    });
    const at = now();
    const id = newId();
    const abandonedCart: AbandonedCart = {
      id,
      storeId: store.id,
      customer: { name: body.customer.name, email: body.customer.email, phone: body.customer.phone ?? null },
      items,
      subtotal: lineTotal(items),
      currency: store.currency,
      recoveryUrl: recoveryUrl(id),
      recovered: false,
      recoveredOrderId: null,
      abandonedAt: body.abandonedAt ?? at,
      createdAt: at,
      updatedAt: at,
    };
    await repositories.abandonedCarts.createAbandonedCart(abandonedCart);
    await events.emit(store.id, 'CART_ABANDONED', { abandonedCart });
    return { status: 201, body: ok({ abandonedCart }) };
  },
} satisfies Partial<Handlers>;
