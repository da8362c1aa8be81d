import { randomUUID } from 'node:crypto';
import { now } from '../../domain/clock.ts';
import { found } from '../../errors.ts';
import { deleted, type Handlers, ok } from '../operation.ts';
import { requireReferences } from '../products/catalog-references.ts';
import type { Kit } from './repository.ts';

const itemReferences = (items: Kit['items']) =>
  items.map((item, index) => ({ path: `items.${index}.productId`, id: item.productId }));

export const kitHandlers: Pick<Handlers, 'listKits' | 'createKit' | 'getKitById' | 'updateKit' | 'deleteKit'> = {
  async listKits({ storeId, query }, { repositories }) {
    return { status: 200, body: ok(await repositories.kits.listKits(storeId, query)) };
  },

  async createKit({ storeId, body }, { repositories }) {
    await requireReferences(repositories, storeId, itemReferences(body.items));
    const at = now();
    const kit: Kit = { id: randomUUID(), storeId, description: null, ...body, createdAt: at, updatedAt: at };
    await repositories.kits.createKit(kit);
    return { status: 201, body: ok({ kit }) };
  },

  async getKitById({ storeId, path }, { repositories }) {
    const kit = found(await repositories.kits.getKitById(storeId, path.kitId));
    return { status: 200, body: ok({ kit }) };
  },

  async updateKit({ storeId, path, body }, { repositories }) {
    const current = found(await repositories.kits.getKitById(storeId, path.kitId));
    if (body.items) await requireReferences(repositories, storeId, itemReferences(body.items));
    const kit: Kit = { ...current, ...body, updatedAt: now() };
    await repositories.kits.updateKit(kit);
    return { status: 200, body: ok({ kit }) };
  },

  async deleteKit({ storeId, path }, { repositories }) {
    return deleted(await repositories.kits.deleteKit(storeId, path.kitId));
  },
};
