import type { components } from '../../generated/openapi.ts';
import { type Api, type ErrorBody, withoutDefaults } from './fixture.ts';

type ProductCreate = components['schemas']['ProductCreate'];

/** A well-formed id no record has. */
export const UNKNOWN = '00000000-0000-4000-8000-000000000000';

/** A DIGITAL product of the client's store (price 10 unless given); fails the test when not created. */
export async function newProduct(api: Api, name: string, fields: Partial<ProductCreate> = {}) {
  const created = await api.POST('/api/v1/products', {
    body: withoutDefaults<ProductCreate>({ name, type: 'DIGITAL', price: 10, ...fields }),
  });
  const product = created.data?.data.product;
  if (!product) throw new Error(`createProduct answered ${created.response.status}`);
  return product;
}

/** A category of the client's store; fails the test when not created. */
export async function newCategory(api: Api, name: string) {
  const created = await api.POST('/api/v1/categories', { body: { name } });
  const category = created.data?.data.category;
  if (!category) throw new Error(`createCategory answered ${created.response.status}`);
  return category;
}

/** The paths an error body's details name, in order (none for the 429 body, whose `error` is a code). */
export const detailPaths = (body: { error: ErrorBody['error'] | string } | undefined): string[] =>
  typeof body?.error === 'object' ? (body.error.details ?? []).map((detail) => detail.path) : [];
