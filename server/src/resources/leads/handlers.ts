import { now } from '../../domain/clock.ts';
import { newId } from '../../domain/new-id.ts';
import { found } from '../../errors.ts';
import { plainHandlers } from '../crud-handlers.ts';
import { type Handlers, ok } from '../operation.ts';
import type { Lead } from './repository.ts';

export const leadHandlers = {
  ...plainHandlers('leads', 'lead', { listLeads: 'list', getLeadById: 'get' }),

  async createLead({ path, body }, { repositories, events }) {
    const store = found(await repositories.stores.find(path.storeId.toLowerCase()));
    const at = now();
    const lead: Lead = {
      id: newId(),
      storeId: store.id,
      name: body.name ?? null,
      email: body.email,
      phone: body.phone ?? null,
      source: body.source,
      tags: body.tags ?? [],
      createdAt: at,
      updatedAt: at,
    };
    await repositories.leads.createLead(lead);
    await events.emit(store.id, 'LEAD_CREATED', { lead });
    return { status: 201, body: ok({ lead }) };
  },
} satisfies Partial<Handlers>;
