import { randomUUID } from 'node:crypto';
import { now } from '../../domain/clock.ts';
import { found } from '../../errors.ts';
import { type Handlers, ok } from '../operation.ts';
import type { Lead } from './repository.ts';

export const leadHandlers: Pick<Handlers, 'listLeads' | 'getLeadById' | 'createLead'> = {
  async listLeads({ storeId, query }, { repositories }) {
    const { records, pagination } = await repositories.leads.listLeads(storeId, query);
    return { status: 200, body: ok({ leads: records, pagination }) };
  },

  async getLeadById({ storeId, path }, { repositories }) {
    const lead = found(await repositories.leads.getLeadById(storeId, path.leadId));
    return { status: 200, body: ok({ lead }) };
  },

  async createLead({ path, body }, { repositories, events }) {
    const store = found(await repositories.stores.find(path.storeId.toLowerCase()));
    const at = now();
    const lead: Lead = {
      id: randomUUID(),
      storeId: store.id,
      name: body.name ?? null,
      email: body.email,
      phone: body.phone ?? null,
      source: body.source ?? 'checkout',
      tags: body.tags ?? [],
      createdAt: at,
      updatedAt: at,
    };
    await repositories.leads.createLead(lead);
    await events.emit(store.id, 'LEAD_CREATED', { lead });
    return { status: 201, body: ok({ lead }) };
  },
};
