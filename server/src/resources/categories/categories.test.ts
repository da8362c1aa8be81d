import { expect } from 'vitest';
import { newCategory, newProduct, UNKNOWN } from '../../../test/catalog.ts';
import { deletedAnswer, deletion } from '../../../test/deletion.ts';
import { describeEngines, malformed, test } from '../../../test/fixture.ts';
import { atCategoryId as at } from '../../../test/records.ts';

describeEngines('categories', () => {
  test('createCategory (201) derives the slug; getCategoryById and listCategories read it back', async ({
    api,
    tenant,
  }) => {
    const created = await api.POST('/api/v1/categories', { body: { name: 'Moda Verão', description: 'Peças leves' } });
    expect(created.response.status).toBe(201);
    const category = created.data?.data.category;
    expect(created.data).toEqual({
      success: true,
      data: {
        category: {
          id: expect.any(String),
          storeId: tenant.storeId,
          name: 'Moda Verão',
          slug: 'moda-verao',
          description: 'Peças leves',
          productCount: 0,
          createdAt: expect.any(String),
          updatedAt: category?.createdAt,
        },
      },
    });
    const read = await api.GET('/api/v1/categories/{categoryId}', at(category?.id ?? UNKNOWN));
    expect(read.response.status).toBe(200);
    expect(read.data).toEqual({ success: true, data: { category } });
    const list = await api.GET('/api/v1/categories', { params: { query: { search: 'verão' } } });
    expect(list.response.status).toBe(200);
    expect(list.data).toEqual({
      success: true,
      data: { categories: [category], pagination: { page: 1, limit: 20, total: 1, totalPages: 1 } },
    });
    expect((await newCategory(api, 'Sem Descrição')).description).toBeNull();
  });

  test('listCategories pages newest first and keeps to the store', async ({ api, otherStore }) => {
    for (const name of ['Alfa', 'Beta', 'Gama']) await newCategory(api, name);
    const first = await api.GET('/api/v1/categories', { params: { query: { limit: 2, page: 1 } } });
    const second = await api.GET('/api/v1/categories', { params: { query: { limit: 2, page: 2 } } });
    expect(first.data?.data.pagination).toEqual({ page: 1, limit: 2, total: 3, totalPages: 2 });
    expect(second.data?.data.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 });
    const names = [...(first.data?.data.categories ?? []), ...(second.data?.data.categories ?? [])].map((c) => c.name);
    expect(names.sort()).toEqual(['Alfa', 'Beta', 'Gama']);
    const foreign = await otherStore.GET('/api/v1/categories', { params: { query: { search: 'alfa' } } });
    expect(foreign.data?.data.categories).toEqual([]);
  });

  test.for([
    ['limit 0', { limit: 0 }, 'limit'],
    ['limit 101', { limit: 101 }, 'limit'],
    ['page 0', { page: 0 }, 'page'],
  ] as const)('listCategories rejects %s with 400 naming the query parameter', async ([, query, field], { api }) => {
    const { response, error } = await api.GET('/api/v1/categories', { params: { query: malformed(query) } });
    expect(response.status).toBe(400);
    expect(error).toMatchObject({
      error: {
        code: 'VALIDATION_ERROR',
        details: expect.arrayContaining([{ location: 'query', path: field, reason: expect.any(String) }]),
      },
    });
  });

  test('listCategories ignores a query parameter the contract does not declare (the list is the same as without it)', async ({
    api,
  }) => {
    for (const name of ['Alfa', 'Beta', 'Gama']) await newCategory(api, name);
    const plain = await api.GET('/api/v1/categories', { params: { query: { limit: 2 } } });
    const withUnknown = await api.GET('/api/v1/categories', {
      params: { query: malformed({ limit: 2, sort: 'name', _: 1700000000 }) },
    });
    expect(withUnknown.response.status).toBe(200);
    expect(withUnknown.data).toEqual(plain.data);
    expect(withUnknown.data?.data.categories).toHaveLength(2);
  });

  test.for([
    ['a name of 1 character', { name: 'A' }, 'name'],
    ['a name of 101 characters', { name: 'x'.repeat(101) }, 'name'],
    ['no name', { description: 'Sem nome' }, 'name'],
    ['a description over 5000 characters', { name: 'Longa', description: 'x'.repeat(5001) }, 'description'],
    ['an unknown field', { name: 'Cores', color: 'azul' }, 'color'],
  ] as const)('createCategory rejects %s (400 naming the field)', async ([, body, field], { api }) => {
    const { response, error } = await api.POST('/api/v1/categories', { body: malformed(body) });
    expect(response.status).toBe(400);
    expect(error).toMatchObject({
      error: { code: 'VALIDATION_ERROR', details: expect.arrayContaining([expect.objectContaining({ path: field })]) },
    });
  });

  test('createCategory and updateCategory answer 409 DUPLICATE_ENTRY for a slug already in the store', async ({
    api,
    otherStore,
  }) => {
    await newCategory(api, 'Acessórios');
    const clash = await api.POST('/api/v1/categories', { body: { name: 'acessorios!' } });
    expect(clash.response.status).toBe(409);
    expect(clash.error).toMatchObject({
      success: false,
      error: { code: 'DUPLICATE_ENTRY', details: [{ location: 'body', path: 'name' }] },
      meta: { status: 409 },
    });
    const elsewhere = await otherStore.POST('/api/v1/categories', { body: { name: 'Acessórios' } });
    expect(elsewhere.response.status).toBe(201);

    const bags = await newCategory(api, 'Bolsas');
    const renamed = await api.PATCH('/api/v1/categories/{categoryId}', {
      ...at(bags.id),
      body: { name: 'ACESSÓRIOS' },
    });
    expect(renamed.response.status).toBe(409);
    expect(renamed.error).toMatchObject({ error: { code: 'DUPLICATE_ENTRY' } });
    expect((await api.GET('/api/v1/categories/{categoryId}', at(bags.id))).data?.data.category).toEqual(bags);
  });

  test('updateCategory changes only the sent fields (a new name, a new slug) and needs one', async ({ api }) => {
    const category = await newCategory(api, 'Calçados');
    const described = await api.PATCH('/api/v1/categories/{categoryId}', {
      ...at(category.id),
      body: { description: 'Tênis e sandálias' },
    });
    expect(described.response.status).toBe(200);
    expect(described.data?.data.category).toEqual({
      ...category,
      description: 'Tênis e sandálias',
      updatedAt: expect.any(String),
    });
    const renamed = await api.PATCH('/api/v1/categories/{categoryId}', {
      ...at(category.id),
      body: { name: 'Calçados Femininos' },
    });
    expect(renamed.data?.data.category).toEqual({
      ...described.data?.data.category,
      name: 'Calçados Femininos',
      slug: 'calcados-femininos',
      updatedAt: expect.any(String),
    });
    const cleared = await api.PATCH('/api/v1/categories/{categoryId}', {
      ...at(category.id),
      body: { description: null },
    });
    expect(cleared.data?.data.category.description).toBeNull();
    const read = await api.GET('/api/v1/categories/{categoryId}', at(category.id));
    expect(read.data?.data.category).toEqual(cleared.data?.data.category);
    const empty = await api.PATCH('/api/v1/categories/{categoryId}', { ...at(category.id), body: {} });
    expect(empty.response.status).toBe(400);
    expect(empty.error).toMatchObject({ error: { code: 'VALIDATION_ERROR' } });
  });

  test('deleteCategory removes the category and its links, keeping the products', async ({ api }) => {
    const category = await newCategory(api, 'Promoções');
    const productId = (await newProduct(api, 'Cinto Couro')).id;
    await api.POST('/api/v1/categories/{categoryId}/products', {
      ...at(category.id),
      body: { productIds: [productId] },
    });
    expect(await deletion(api.DELETE('/api/v1/categories/{categoryId}', at(category.id)))).toEqual(
      deletedAnswer(category.id),
    );
    expect((await api.GET('/api/v1/categories/{categoryId}', at(category.id))).response.status).toBe(404);
    expect((await api.DELETE('/api/v1/categories/{categoryId}', at(category.id))).response.status).toBe(404);
    const product = await api.GET('/api/v1/products/{productId}', { params: { path: { productId } } });
    expect(product.response.status).toBe(200);
  });

  test('assignCategoryProducts counts each product once however often it is sent; listProducts filters by it', async ({
    api,
  }) => {
    const category = await newCategory(api, 'Inverno');
    const [a, b, c] = [
      (await newProduct(api, 'Casaco Lã')).id,
      (await newProduct(api, 'Cachecol')).id,
      (await newProduct(api, 'Luva Térmica')).id,
    ];
    const assign = (productIds: string[]) =>
      api.POST('/api/v1/categories/{categoryId}/products', { ...at(category.id), body: { productIds } });
    const first = await assign([a, b, a]);
    expect(first.response.status).toBe(200);
    expect(first.data).toEqual({ success: true, data: { success: true, assignedCount: 2 } });
    expect((await assign([b, c])).data).toEqual({ success: true, data: { success: true, assignedCount: 1 } });
    expect((await assign([a, b, c])).data).toEqual({ success: true, data: { success: true, assignedCount: 0 } });
    const counted = await api.GET('/api/v1/categories/{categoryId}', at(category.id));
    expect(counted.data?.data.category.productCount).toBe(3);

    const filtered = await api.GET('/api/v1/products', { params: { query: { categoryId: category.id, limit: 100 } } });
    expect(filtered.response.status).toBe(200);
    expect(filtered.data?.data.products.map((p) => p.id).sort()).toEqual([a, b, c].sort());
    expect(filtered.data?.data.pagination.total).toBe(3);
    const none = await api.GET('/api/v1/products', { params: { query: { categoryId: UNKNOWN } } });
    expect(none.data?.data.products).toEqual([]);

    expect(await deletion(api.DELETE('/api/v1/products/{productId}', { params: { path: { productId: c } } }))).toEqual(
      deletedAnswer(c),
    );
    const recounted = await api.GET('/api/v1/categories/{categoryId}', at(category.id));
    expect(recounted.data?.data.category.productCount).toBe(2);
    const listed = await api.GET('/api/v1/categories', { params: { query: { search: 'inverno' } } });
    expect(listed.data?.data.categories).toEqual([recounted.data?.data.category]);
  });

  test('assignCategoryProducts accepts 250 ids and rejects 0 or 251 with 400 naming productIds', async ({ api }) => {
    const category = await newCategory(api, 'Atacado');
    const products = await Promise.all(
      Array.from({ length: 250 }, (_, index) => newProduct(api, `Item Atacado ${index}`)),
    );
    const ids = products.map((product) => product.id);
    const assign = (productIds: string[]) =>
      api.POST('/api/v1/categories/{categoryId}/products', { ...at(category.id), body: { productIds } });
    const full = await assign(ids);
    expect(full.response.status).toBe(200);
    expect(full.data?.data.assignedCount).toBe(250);
    const read = await api.GET('/api/v1/categories/{categoryId}', at(category.id));
    expect(read.data?.data.category.productCount).toBe(250);

    for (const productIds of [[], [...ids, UNKNOWN]]) {
      const { response, error } = await assign(productIds);
      expect(response.status).toBe(400);
      expect(error).toMatchObject({
        error: {
          code: 'VALIDATION_ERROR',
          details: expect.arrayContaining([{ location: 'body', path: 'productIds', reason: expect.any(String) }]),
        },
      });
    }
    const notUuid = await assign(['abc']);
    expect(notUuid.response.status).toBe(400);
    expect(notUuid.error).toMatchObject({
      error: { details: expect.arrayContaining([expect.objectContaining({ path: 'productIds.0' })]) },
    });
  });

  test('assignCategoryProducts answers 400 VALIDATION_ERROR naming the ids that are not the store’s (the source lists no other status for the body), and links nothing', async ({
    api,
    otherStore,
  }) => {
    const category = await newCategory(api, 'Presentes');
    const mine = (await newProduct(api, 'Vela Aromática')).id;
    const theirs = (await newProduct(otherStore, 'Vela Alheia')).id;
    const { response, error } = await api.POST('/api/v1/categories/{categoryId}/products', {
      ...at(category.id),
      body: { productIds: [mine, theirs, UNKNOWN] },
    });
    expect(response.status).toBe(400);
    expect(error).toEqual({
      success: false,
      error: {
        code: 'VALIDATION_ERROR',
        message: 'Os dados enviados são inválidos.',
        details: [
          {
            location: 'body',
            path: 'productIds.1',
            reason: `produto não encontrado: ${theirs}`,
            rule: 'category-products-of-store',
          },
          {
            location: 'body',
            path: 'productIds.2',
            reason: `produto não encontrado: ${UNKNOWN}`,
            rule: 'category-products-of-store',
          },
        ],
      },
      meta: { timestamp: expect.any(String), status: 400 },
    });
    const read = await api.GET('/api/v1/categories/{categoryId}', at(category.id));
    expect(read.data?.data.category.productCount).toBe(0);
    const linked = await api.GET('/api/v1/products', { params: { query: { categoryId: category.id } } });
    expect(linked.data?.data.products).toEqual([]);
  });

  test('getCategoryById, updateCategory, deleteCategory and assignCategoryProducts answer 404 for an unknown or another store’s category', async ({
    api,
    otherStore,
  }) => {
    const foreign = await newCategory(otherStore, 'Categoria Alheia');
    const productId = (await newProduct(api, 'Produto Próprio')).id;
    for (const id of [UNKNOWN, foreign.id]) {
      const responses = [
        await api.GET('/api/v1/categories/{categoryId}', at(id)),
        await api.PATCH('/api/v1/categories/{categoryId}', { ...at(id), body: { name: 'Tomada' } }),
        await api.DELETE('/api/v1/categories/{categoryId}', at(id)),
        await api.POST('/api/v1/categories/{categoryId}/products', { ...at(id), body: { productIds: [productId] } }),
      ];
      for (const { response, error } of responses) {
        expect(response.status).toBe(404);
        expect(error).toEqual({
          success: false,
          error: { code: 'RESOURCE_NOT_FOUND', message: 'Recurso não encontrado.' },
          meta: { timestamp: expect.any(String), status: 404 },
        });
      }
    }
    const theirs = await otherStore.GET('/api/v1/categories/{categoryId}', at(foreign.id));
    expect(theirs.data?.data.category).toEqual(foreign);
  });

  test('getCategoryById answers 400 for a category id that is not a uuid', async ({ api }) => {
    const { response, error } = await api.GET('/api/v1/categories/{categoryId}', at('moda'));
    expect(response.status).toBe(400);
    expect(error).toMatchObject({
      error: {
        details: expect.arrayContaining([{ location: 'path', path: 'categoryId', reason: expect.any(String) }]),
      },
    });
  });

  test('createCategory, updateCategory, deleteCategory and assignCategoryProducts need categories:write (403 AUTH_SCOPE_DENIED)', async ({
    withScopes,
  }) => {
    const reader = await withScopes(['categories:read']);
    expect((await reader.GET('/api/v1/categories')).response.status).toBe(200);
    const writes = [
      await reader.POST('/api/v1/categories', { body: { name: 'Negada' } }),
      await reader.PATCH('/api/v1/categories/{categoryId}', { ...at(UNKNOWN), body: { name: 'Negada' } }),
      await reader.DELETE('/api/v1/categories/{categoryId}', at(UNKNOWN)),
      await reader.POST('/api/v1/categories/{categoryId}/products', {
        ...at(UNKNOWN),
        body: { productIds: [UNKNOWN] },
      }),
    ];
    for (const { response, error } of writes) {
      expect(response.status).toBe(403);
      expect(error).toMatchObject({ error: { code: 'AUTH_SCOPE_DENIED' } });
    }
    const writer = await withScopes(['categories:write']);
    expect((await writer.GET('/api/v1/categories')).response.status).toBe(403);
  });
});
