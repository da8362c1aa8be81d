import { expect } from 'vitest';
import { UNKNOWN } from '../../../test/catalog.ts';
import { deletedAnswer, deletion } from '../../../test/deletion.ts';
import { describeEngines, malformed, test, withoutDefaults } from '../../../test/fixture.ts';
import type { MetatagCreate } from '../../../test/records.ts';
import { atMetatagId as at } from '../../../test/records.ts';
import { expectInvalid, expectQueryInvalid, expectScopeDenied, outOfBounds } from '../../../test/store-scoped.ts';

const pixel = { name: 'Pixel Meta', content: '<script>fbq("init", "123")</script>', placement: 'HEAD' } as const;
const metatagBody = (fields: Partial<MetatagCreate> = {}) => withoutDefaults<MetatagCreate>({ ...pixel, ...fields });

describeEngines('metatags', () => {
  test('createMetatag makes it inactive on every page by default; getMetatagById and listMetatags read it back', async ({
    api,
    tenant,
  }) => {
    const created = await api.POST('/api/v1/metatags', { body: metatagBody() });
    expect(created.response.status).toBe(201);
    const metatag = created.data?.data.metatag;
    expect(created.data).toEqual({
      success: true,
      data: {
        metatag: {
          id: expect.any(String),
          storeId: tenant.storeId,
          ...pixel,
          pages: ['ALL'],
          active: false,
          createdAt: expect.any(String),
          updatedAt: metatag?.createdAt,
        },
      },
    });
    const read = await api.GET('/api/v1/metatags/{metatagId}', at(metatag?.id ?? UNKNOWN));
    expect(read.data).toEqual(created.data);
    const list = await api.GET('/api/v1/metatags', { params: { query: { limit: 100 } } });
    expect(list.data?.data.metatags).toEqual([metatag]);
  });

  test('updateMetatag changes only the sent fields; pages replaces the list; active switches it on', async ({
    api,
  }) => {
    const created = await api.POST('/api/v1/metatags', { body: metatagBody({ pages: ['PRODUCT', 'CHECKOUT'] }) });
    const metatag = created.data?.data.metatag;
    expect(metatag?.pages).toEqual(['PRODUCT', 'CHECKOUT']);
    const path = at(metatag?.id ?? UNKNOWN);
    const updated = await api.PATCH('/api/v1/metatags/{metatagId}', {
      ...path,
      body: { active: true, pages: ['ORDER_CONFIRMATION'] },
    });
    expect(updated.response.status).toBe(200);
    expect(updated.data?.data.metatag).toEqual({
      ...metatag,
      active: true,
      pages: ['ORDER_CONFIRMATION'],
      updatedAt: expect.any(String),
    });
    const read = await api.GET('/api/v1/metatags/{metatagId}', path);
    expect(read.data?.data.metatag).toEqual(updated.data?.data.metatag);
  });

  test.for([
    ['ALL combined with another page', { ...pixel, pages: ['ALL', 'PRODUCT'] }, 'pages'],
    ['an unknown page', { ...pixel, pages: ['HOME'] }, 'pages.0'],
    ['repeated pages', { ...pixel, pages: ['PRODUCT', 'PRODUCT'] }, 'pages'],
    ['an unknown placement', { ...pixel, placement: 'FOOTER' }, 'placement'],
    ['no content', { name: 'x', placement: 'HEAD' }, 'content'],
    ['an empty name', { ...pixel, name: '' }, 'name'],
    ['content over 5000', { ...pixel, content: 'x'.repeat(5001) }, 'content'],
  ] as const)(
    'createMetatag rejects %s with 400 VALIDATION_ERROR naming the field',
    async ([, body, field], { api }) => {
      expectInvalid(await api.POST('/api/v1/metatags', { body: malformed(body) }), field);
    },
  );

  test('updateMetatag rejects pages combining ALL, and an empty body', async ({ api }) => {
    const created = await api.POST('/api/v1/metatags', { body: metatagBody() });
    const path = at(created.data?.data.metatag.id ?? UNKNOWN);
    const combined = await api.PATCH('/api/v1/metatags/{metatagId}', { ...path, body: { pages: ['ALL', 'CATEGORY'] } });
    expect(combined.response.status).toBe(400);
    // The contract states the rule in the schema (x-rule metatag-all-pages-alone), so the validator names pages.
    expect(combined.error).toMatchObject({
      error: { details: expect.arrayContaining([expect.objectContaining({ location: 'body', path: 'pages' })]) },
    });
    expect((await api.PATCH('/api/v1/metatags/{metatagId}', { ...path, body: {} })).response.status).toBe(400);
  });

  test('getMetatagById, updateMetatag and deleteMetatag answer 404 for unknown ids and another store’s metatag', async ({
    api,
    otherStore,
  }) => {
    const created = await api.POST('/api/v1/metatags', { body: metatagBody() });
    const path = at(created.data?.data.metatag.id ?? UNKNOWN);
    const unknown = await api.GET('/api/v1/metatags/{metatagId}', at(UNKNOWN));
    expect(unknown.response.status).toBe(404);
    expect(unknown.error).toMatchObject({ error: { code: 'RESOURCE_NOT_FOUND' } });
    expect((await otherStore.GET('/api/v1/metatags/{metatagId}', path)).response.status).toBe(404);
    const foreignUpdate = await otherStore.PATCH('/api/v1/metatags/{metatagId}', { ...path, body: { active: true } });
    expect(foreignUpdate.response.status).toBe(404);
    expect((await otherStore.DELETE('/api/v1/metatags/{metatagId}', path)).response.status).toBe(404);
    expect(await deletion(api.DELETE('/api/v1/metatags/{metatagId}', path))).toEqual(
      deletedAnswer(path.params.path.metatagId),
    );
    expect((await api.GET('/api/v1/metatags/{metatagId}', path)).response.status).toBe(404);
  });

  test('listMetatags filters by active, placement and name, with pagination', async ({ api }) => {
    await api.POST('/api/v1/metatags', { body: metatagBody({ name: 'Pixel Google', active: true }) });
    await api.POST('/api/v1/metatags', { body: metatagBody({ name: 'Pixel TikTok', placement: 'BODY_END' }) });
    await api.POST('/api/v1/metatags', { body: metatagBody({ name: 'Verificação', active: true }) });
    const names = async (query: { active?: boolean; placement?: 'BODY_END'; search?: string }) => {
      const response = await api.GET('/api/v1/metatags', { params: { query } });
      expect(response.response.status).toBe(200);
      return response.data?.data.metatags.map((metatag) => metatag.name).sort();
    };
    expect(await names({ active: true })).toEqual(['Pixel Google', 'Verificação']);
    expect(await names({ placement: 'BODY_END' })).toEqual(['Pixel TikTok']);
    expect(await names({ search: 'pixel' })).toEqual(['Pixel Google', 'Pixel TikTok']);
    const page = await api.GET('/api/v1/metatags', { params: { query: { limit: 2, page: 2 } } });
    expect(page.data?.data.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 });
    expect(page.data?.data.metatags).toHaveLength(1);
  });

  test.for([...outOfBounds, [{ active: 'maybe' }, 'active']] as const)(
    'listMetatags rejects the query %o with 400',
    async ([query, field], { api }) => {
      expectQueryInvalid(await api.GET('/api/v1/metatags', { params: { query: malformed(query) } }), field);
    },
  );

  test('createMetatag and listMetatags need the automations scopes (403 AUTH_SCOPE_DENIED)', async ({ withScopes }) => {
    const readOnly = await withScopes(['automations:read']);
    expectScopeDenied([await readOnly.POST('/api/v1/metatags', { body: metatagBody() })]);
    const unrelated = await withScopes(['products:read']);
    expect((await unrelated.GET('/api/v1/metatags')).response.status).toBe(403);
  });
});
