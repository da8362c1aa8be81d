import { expect } from 'vitest';
import { UNKNOWN } from '../../../test/catalog.ts';
import { type AdminApi, describeEngines, malformed, test, withoutDefaults } from '../../../test/fixture.ts';
import { describeDomainEvents, input } from '../../../test/recording-deps.ts';
import type { AdminLeadCreate, Lead } from '../../../test/records.ts';
import type { ById } from '../../../test/store-scoped.ts';
import {
  expectInvalid,
  expectNotFoundAlike,
  expectQueryInvalid,
  expectScopeDenied,
  outOfBounds,
} from '../../../test/store-scoped.ts';
import { leadHandlers } from './handlers.ts';

/** The documented list order: newest first; records created in the same millisecond come in id order. */
const newestFirst = (records: Lead[]) =>
  [...records].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id)).map((r) => r.id);

/** createLead through the admin API; the lead it answers. */
async function leadOf(admin: AdminApi, storeId: string, body: Partial<AdminLeadCreate>): Promise<Lead> {
  const { response, data } = await admin.POST('/admin/stores/{storeId}/leads', {
    params: { path: { storeId } },
    body: withoutDefaults<AdminLeadCreate>(body),
  });
  if (response.status !== 201 || !data) throw new Error(`createLead answered ${response.status}`);
  return data.data.lead;
}

describeEngines('leads', () => {
  test('createLead captures a lead through admin (201); getLeadById and listLeads read it back', async ({
    api,
    admin,
    tenant,
  }) => {
    const body = {
      name: 'João Souza',
      email: 'joao.souza@example.com',
      phone: '+5511900001111',
      source: 'popup',
      tags: ['newsletter'],
    };
    const created = await admin.POST('/admin/stores/{storeId}/leads', {
      params: { path: { storeId: tenant.storeId } },
      body,
    });
    expect(created.response.status).toBe(201);
    const lead = created.data?.data.lead;
    expect(created.data).toEqual({
      success: true,
      data: {
        lead: {
          ...body,
          id: expect.any(String),
          storeId: tenant.storeId,
          createdAt: expect.any(String),
          updatedAt: lead?.createdAt,
        },
      },
    });
    const read = await api.GET('/api/v1/leads/{leadId}', { params: { path: { leadId: lead?.id ?? UNKNOWN } } });
    expect(read.response.status).toBe(200);
    expect(read.data).toEqual({ success: true, data: { lead } });
    const list = await api.GET('/api/v1/leads', { params: { query: { limit: 100 } } });
    expect(list.data?.data.leads.find((listed) => listed.id === lead?.id)).toEqual(lead);
  });

  test('createLead defaults a lead with only an e-mail: no name, no phone, source checkout, no tags', async ({
    admin,
    tenant,
  }) => {
    const lead = await leadOf(admin, tenant.storeId, { email: 'so.email@example.com' });
    expect(lead).toEqual({
      id: expect.any(String),
      storeId: tenant.storeId,
      name: null,
      email: 'so.email@example.com',
      phone: null,
      source: 'checkout',
      tags: [],
      createdAt: expect.any(String),
      updatedAt: lead.createdAt,
    });
  });

  test.for([
    ['no e-mail', { name: 'Sem Email' }, 'email'],
    ['an e-mail that is not one', { email: 'joao' }, 'email'],
    ['a phone over 20 characters (the lead read shape holds 20)', { email: 'a@b.com', phone: '1'.repeat(21) }, 'phone'],
    ['an empty source', { email: 'a@b.com', source: '' }, 'source'],
    ['21 tags', { email: 'a@b.com', tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, 'tags'],
    ['an unknown field', { email: 'a@b.com', score: 10 }, 'score'],
  ] as const)(
    'createLead rejects a lead with %s: 400 VALIDATION_ERROR naming the field',
    async ([, body, field], { admin, tenant }) => {
      expectInvalid(
        await admin.POST('/admin/stores/{storeId}/leads', {
          params: { path: { storeId: tenant.storeId } },
          body: malformed(body),
        }),
        field,
      );
    },
  );

  test('createLead answers 404 for an unknown store', async ({ admin }) => {
    const { response, error } = await admin.POST('/admin/stores/{storeId}/leads', {
      params: { path: { storeId: UNKNOWN } },
      body: withoutDefaults<AdminLeadCreate>({ email: 'a@b.com' }),
    });
    expect(response.status).toBe(404);
    expect(error).toMatchObject({ error: { code: 'RESOURCE_NOT_FOUND' } });
  });

  test('listLeads lists newest first, searched by name or e-mail and filtered by source, with pagination', async ({
    api,
    admin,
    tenant,
  }) => {
    const a = await leadOf(admin, tenant.storeId, { name: 'Ana Lima', email: 'ana@x.com', source: 'popup' });
    const b = await leadOf(admin, tenant.storeId, { name: 'Bruno', email: 'LIMA.b@x.com', source: 'checkout' });
    const c = await leadOf(admin, tenant.storeId, { email: 'carla@x.com', source: 'popup' });
    const ids = async (query: { search?: string; source?: string }) =>
      (await api.GET('/api/v1/leads', { params: { query } })).data?.data.leads.map((lead) => lead.id);
    expect(await ids({})).toEqual(newestFirst([a, b, c]));
    expect(await ids({ search: 'lima' })).toEqual(newestFirst([a, b]));
    expect(await ids({ source: 'popup' })).toEqual(newestFirst([a, c]));
    expect(await ids({ search: 'carla', source: 'checkout' })).toEqual([]);
    const paged = await api.GET('/api/v1/leads', { params: { query: { limit: 2, page: 2 } } });
    expect(paged.data?.data).toEqual({
      leads: [expect.objectContaining({ id: newestFirst([a, b, c])[2] })],
      pagination: { page: 2, limit: 2, total: 3, totalPages: 2 },
    });
  });

  test.for(outOfBounds)('listLeads rejects %o (400)', async ([query, field], { api }) => {
    expectQueryInvalid(await api.GET('/api/v1/leads', { params: { query } }), field);
  });

  test('getLeadById answers 404 for unknown and foreign lead ids; listLeads and getLeadById answer 403 to a key without leads:read', async ({
    api,
    admin,
    otherStore,
    tenant,
    withScopes,
  }) => {
    const lead = await leadOf(admin, tenant.storeId, { email: 'privado@example.com' });
    const read: ById = (client, leadId) => client.GET('/api/v1/leads/{leadId}', { params: { path: { leadId } } });
    await expectNotFoundAlike([read], read, { api, otherStore }, lead.id);
    const productsOnly = await withScopes(['products:read']);
    expectScopeDenied([await productsOnly.GET('/api/v1/leads'), await read(productsOnly, lead.id)]);
  });
});

describeDomainEvents('lead domain events', (recording) => {
  const { storeId } = recording;

  test('createLead emits LEAD_CREATED with the lead in its read shape', async () => {
    const lead = (
      await leadHandlers.createLead(
        input<'createLead'>({ path: { storeId }, body: { email: 'lead@example.com', source: 'newsletter' } }),
        recording.deps,
      )
    ).body.data.lead;
    expect(recording.events).toEqual([{ storeId, name: 'LEAD_CREATED', payload: { lead } }]);
  });
});
