import { now } from '../../domain/clock.ts';
import { newId } from '../../domain/new-id.ts';
import { found } from '../../errors.ts';
import { type Handlers, ok } from '../operation.ts';

/** The admin API adds variants to any store's product; the product's own store keeps them. */
export const variantHandlers = {
  async createVariant({ path, body }, { repositories }) {
    const owner = found(await repositories.products.productOwnerStore(path.productId));
    const product = found(await repositories.products.getProductById(owner, path.productId));
    const variant = {
      id: newId(),
      title: body.title,
      sku: body.sku ?? null,
      price: body.price ?? product.price,
      stock: body.stock,
      status: body.status,
    };
    await repositories.products.createVariant(owner, product.id, variant, now());
    return { status: 201, body: ok({ variant }) };
  },
} satisfies Partial<Handlers>;
