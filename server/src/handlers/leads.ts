import { randomUUID } from 'node:crypto';
import { now } from '../domain/clock.ts';
import { notFound } from '../errors.ts';
import type { Lead } from '../repositories/leads-repository.ts';
import { paginationOf } from '../repositories/pagination.ts';
import { type Handlers, ok } from '../resources/operation.ts';

export const leadHandlers: Pick<Handlers, 'listLeads' | 'getLeadById' | 'createLead'> = {
  async listLeads({ storeId, query }, { repositories }) {
    const { leads, page } = await repositories.leads.list(storeId, query, query);
    return { status: 200, body: ok({ leads, pagination: paginationOf(page) }) };
  },

  async getLeadById({ storeId, path }, { repositories }) {
    const lead = await repositories.leads.find(storeId, path.leadId);
    if (!lead) throw notFound();
    return { status: 200, body: ok({ lead }) };
  },

  async createLead({ path, body }, { repositories, events }) {
    const store = await repositories.stores.find(path.storeId.toLowerCase());
    if (!store) throw notFound();
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
    await repositories.leads.insert(lead);
    events.emit(store.id, 'LEAD_CREATED', { lead });
    return { status: 201, body: ok({ lead }) };
  },
};
