import { now } from '../../domain/clock.ts';
import { newId } from '../../domain/new-id.ts';
import { type Handlers, ok } from '../operation.ts';

export const storeHandlers = {
  async createStore({ body }, { repositories }) {
    const store = await repositories.stores.createStore({
      id: newId(),
      name: body.name,
      currency: body.currency,
      createdAt: now(),
    });
    return { status: 201, body: ok({ store }) };
  },
} satisfies Partial<Handlers>;
