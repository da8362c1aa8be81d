import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTenant, engines, startServer, type Tenant, type TestServer } from './harness.ts';

const pixel = {
  name: 'Pixel Meta',
  content: '<script>fbq("init", "123")</script>',
  placement: 'HEAD',
};

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe.each(engines)('metatags on %s', (engine) => {
  let server: TestServer;
  let tenant: Tenant;
  let other: Tenant;
  const v1 = (method: string, path: string, body?: unknown, who: Tenant = tenant) =>
    call(server.baseUrl, method, path, { headers: who.headers, ...(body !== undefined ? { body } : {}) });

  beforeAll(async () => {
    server = await startServer({ engine });
    tenant = await createTenant(server);
    other = await createTenant(server);
  });
  afterAll(() => server.close());

  it('creates a metatag inactive on every page by default, and reads it back', async () => {
    const created = await v1('POST', '/api/v1/metatags', pixel);
    expect(created.status).toBe(201);
    const metatag = created.body.data.metatag;
    expect(created.body).toEqual({
      success: true,
      data: {
        metatag: {
          id: expect.any(String),
          storeId: tenant.storeId,
          ...pixel,
          pages: ['ALL'],
          active: false,
          createdAt: expect.any(String),
          updatedAt: metatag.createdAt,
        },
      },
    });
    const read = await v1('GET', `/api/v1/metatags/${metatag.id}`);
    expect(read.body).toEqual(created.body);
    const list = await v1('GET', '/api/v1/metatags?limit=100');
    expect(list.body.data.metatags).toContainEqual(metatag);
  });

  it('updates only the sent fields; pages replaces the list; active switches it on', async () => {
    const metatag = (await v1('POST', '/api/v1/metatags', { ...pixel, pages: ['PRODUCT', 'CHECKOUT'] })).body.data
      .metatag;
    expect(metatag.pages).toEqual(['PRODUCT', 'CHECKOUT']);
    const updated = await v1('PATCH', `/api/v1/metatags/${metatag.id}`, {
      active: true,
      pages: ['ORDER_CONFIRMATION'],
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.metatag).toEqual({
      ...metatag,
      active: true,
      pages: ['ORDER_CONFIRMATION'],
      updatedAt: expect.any(String),
    });
    expect((await v1('GET', `/api/v1/metatags/${metatag.id}`)).body.data.metatag).toEqual(updated.body.data.metatag);
  });

  it.each([
    ['ALL combined with another page', { ...pixel, pages: ['ALL', 'PRODUCT'] }, 'pages'],
    ['an unknown page', { ...pixel, pages: ['HOME'] }, 'pages.0'],
    ['repeated pages', { ...pixel, pages: ['PRODUCT', 'PRODUCT'] }, 'pages'],
    ['an unknown placement', { ...pixel, placement: 'FOOTER' }, 'placement'],
    ['no content', { name: 'x', placement: 'HEAD' }, 'content'],
    ['an empty name', { ...pixel, name: '' }, 'name'],
    ['content over 5000', { ...pixel, content: 'x'.repeat(5001) }, 'content'],
  ])('rejects %s with 400 VALIDATION_ERROR naming the field', async (_name, body, field) => {
    const response = await v1('POST', '/api/v1/metatags', body);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
  });

  it('rejects an update combining ALL, or with no field', async () => {
    const metatag = (await v1('POST', '/api/v1/metatags', pixel)).body.data.metatag;
    const combined = await v1('PATCH', `/api/v1/metatags/${metatag.id}`, { pages: ['ALL', 'CATEGORY'] });
    expect(combined.status).toBe(400);
    expect(combined.body.error.details[0]).toMatchObject({ location: 'body', path: 'pages' });
    expect((await v1('PATCH', `/api/v1/metatags/${metatag.id}`, {})).status).toBe(400);
  });

  it('answers 404 for unknown ids and another store’s metatag, and deletes', async () => {
    const metatag = (await v1('POST', '/api/v1/metatags', pixel)).body.data.metatag;
    const unknown = await v1('GET', `/api/v1/metatags/${UNKNOWN}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('RESOURCE_NOT_FOUND');
    expect((await v1('GET', `/api/v1/metatags/${metatag.id}`, undefined, other)).status).toBe(404);
    expect((await v1('PATCH', `/api/v1/metatags/${metatag.id}`, { active: true }, other)).status).toBe(404);
    expect((await v1('DELETE', `/api/v1/metatags/${metatag.id}`, undefined, other)).status).toBe(404);
    expect((await v1('DELETE', `/api/v1/metatags/${metatag.id}`)).status).toBe(204);
    expect((await v1('GET', `/api/v1/metatags/${metatag.id}`)).status).toBe(404);
  });

  it('filters by active, placement and name, with pagination', async () => {
    const fresh = await createTenant(server);
    await v1('POST', '/api/v1/metatags', { ...pixel, name: 'Pixel Google', active: true }, fresh);
    await v1('POST', '/api/v1/metatags', { ...pixel, name: 'Pixel TikTok', placement: 'BODY_END' }, fresh);
    await v1('POST', '/api/v1/metatags', { ...pixel, name: 'Verificação', active: true }, fresh);
    const names = async (query: string) => {
      const response = await v1('GET', `/api/v1/metatags?${query}`, undefined, fresh);
      expect(response.status).toBe(200);
      return response.body.data.metatags.map((m: { name: string }) => m.name).sort();
    };
    expect(await names('active=true')).toEqual(['Pixel Google', 'Verificação']);
    expect(await names('placement=BODY_END')).toEqual(['Pixel TikTok']);
    expect(await names('search=pixel')).toEqual(['Pixel Google', 'Pixel TikTok']);
    const page = await v1('GET', '/api/v1/metatags?limit=2&page=2', undefined, fresh);
    expect(page.body.data.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 });
    expect(page.body.data.metatags).toHaveLength(1);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['page=0', 'page'],
    ['active=maybe', 'active'],
  ])('rejects the list query %s with 400', async (query, field) => {
    const response = await v1('GET', `/api/v1/metatags?${query}`);
    expect(response.status).toBe(400);
    expect(response.body.error.details[0]).toMatchObject({ location: 'query', path: field });
  });

  it('denies keys without the automations scopes (403 AUTH_SCOPE_DENIED)', async () => {
    const readOnly = await createTenant(server, ['automations:read']);
    const denied = await v1('POST', '/api/v1/metatags', pixel, readOnly);
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('AUTH_SCOPE_DENIED');
    const unrelated = await createTenant(server, ['products:read']);
    expect((await v1('GET', '/api/v1/metatags', undefined, unrelated)).status).toBe(403);
  });
});
