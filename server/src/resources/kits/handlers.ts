import { now } from '../../domain/clock.ts';
import { newId } from '../../domain/new-id.ts';
import { found } from '../../errors.ts';
import { plainHandlers } from '../crud-handlers.ts';
import { type Handlers, ok } from '../operation.ts';
import { requireReferences } from '../products/catalog-references.ts';
import type { Kit } from './repository.ts';

const itemReferences = (items: Kit['items']) =>
  items.map((item, index) => ({ path: `items.${index}.productId`, id: item.productId }));

export const kitHandlers = {
  ...plainHandlers('kits', 'kit', { listKits: 'list', getKitById: 'get', deleteKit: 'delete' }),

  async createKit({ storeId, body }, { repositories }) {
    await requireReferences(repositories, storeId, itemReferences(body.items));
    const at = now();
    const kit: Kit = { id: newId(), storeId, description: null, ...body, createdAt: at, updatedAt: at };
    await repositories.kits.createKit(kit);
    return { status: 201, body: ok({ kit }) };
  },

  async updateKit({ storeId, path, body }, { repositories }) {
    const current = found(await repositories.kits.getKitById(storeId, path.kitId));
    if (body.items) await requireReferences(repositories, storeId, itemReferences(body.items));
    const kit: Kit = { ...current, ...body, updatedAt: now() };
    await repositories.kits.updateKit(kit);
    return { status: 200, body: ok({ kit }) };
  },
} satisfies Partial<Handlers>;
