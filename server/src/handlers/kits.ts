import { randomUUID } from 'node:crypto';
import { now } from '../domain/clock.ts';
import { requireReferences } from '../domain/offer-rules.ts';
import { notFound } from '../errors.ts';
import type { Kit } from '../repositories/kits-repository.ts';
import { paginationOf } from '../repositories/pagination.ts';
import { type Handlers, ok } from '../resources/operation.ts';

const itemReferences = (items: Kit['items']) =>
  items.map((item, index) => ({ path: `items.${index}.productId`, id: item.productId }));

export const kitHandlers: Pick<Handlers, 'listKits' | 'createKit' | 'getKitById' | 'updateKit' | 'deleteKit'> = {
  async listKits({ storeId, query }, { repositories }) {
    const { kits, page } = await repositories.kits.list(storeId, query, query);
    return { status: 200, body: ok({ kits, pagination: paginationOf(page) }) };
  },

  async createKit({ storeId, body }, { repositories }) {
    await requireReferences(repositories, storeId, itemReferences(body.items));
    const at = now();
    const kit: Kit = {
      id: randomUUID(),
      storeId,
      name: body.name,
      description: body.description ?? null,
      status: body.status ?? 'ACTIVE',
      price: body.price,
      items: body.items,
      createdAt: at,
      updatedAt: at,
    };
    await repositories.kits.insert(kit);
    return { status: 201, body: ok({ kit }) };
  },

  async getKitById({ storeId, path }, { repositories }) {
    const kit = await repositories.kits.find(storeId, path.kitId);
    if (!kit) throw notFound();
    return { status: 200, body: ok({ kit }) };
  },

  async updateKit({ storeId, path, body }, { repositories }) {
    const current = await repositories.kits.find(storeId, path.kitId);
    if (!current) throw notFound();
    if (body.items) await requireReferences(repositories, storeId, itemReferences(body.items));
    const kit: Kit = { ...current, ...body, updatedAt: now() };
    await repositories.kits.replace(kit);
    return { status: 200, body: ok({ kit }) };
  },

  async deleteKit({ storeId, path }, { repositories }) {
    if (!(await repositories.kits.delete(storeId, path.kitId))) throw notFound();
    return { status: 204, body: undefined };
  },
};
