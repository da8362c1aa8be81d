import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTenant, engines, startServer, type Tenant, type TestServer } from './harness.ts';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

describe.each(engines)('categories on %s', (engine) => {
  let server: TestServer;
  let tenant: Tenant;
  let other: Tenant;
  const v1 = (method: string, path: string, body?: unknown, who: Tenant = tenant) =>
    call(server.baseUrl, method, path, { headers: who.headers, ...(body !== undefined ? { body } : {}) });
  const newProduct = async (name: string, who: Tenant = tenant): Promise<string> => {
    const created = await v1('POST', '/api/v1/products', { name, type: 'DIGITAL', price: 10 }, who);
    expect(created.status).toBe(201);
    return created.body.data.product.id;
  };
  const newCategory = async (name: string, who: Tenant = tenant) => {
    const created = await v1('POST', '/api/v1/categories', { name }, who);
    expect(created.status).toBe(201);
    return created.body.data.category;
  };

  beforeAll(async () => {
    server = await startServer({ engine });
    tenant = await createTenant(server);
    other = await createTenant(server);
  });
  afterAll(() => server.close());

  it('creates a category (201), derives the slug, and reads it back, alone and in the list', async () => {
    const created = await v1('POST', '/api/v1/categories', { name: 'Moda Verão', description: 'Peças leves' });
    expect(created.status).toBe(201);
    const category = created.body.data.category;
    expect(created.body).toEqual({
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
          updatedAt: category.createdAt,
        },
      },
    });
    const read = await v1('GET', `/api/v1/categories/${category.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ success: true, data: { category } });
    const list = await v1('GET', '/api/v1/categories?search=ver%C3%A3o');
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      success: true,
      data: { categories: [category], pagination: { page: 1, limit: 20, total: 1, totalPages: 1 } },
    });
    const defaults = await newCategory('Sem Descrição');
    expect(defaults.description).toBeNull();
  });

  it('pages the list and keeps it to the store', async () => {
    const owner = await createTenant(server);
    for (const name of ['Alfa', 'Beta', 'Gama']) await newCategory(name, owner);
    const first = await v1('GET', '/api/v1/categories?limit=2&page=1', undefined, owner);
    const second = await v1('GET', '/api/v1/categories?limit=2&page=2', undefined, owner);
    expect(first.body.data.pagination).toEqual({ page: 1, limit: 2, total: 3, totalPages: 2 });
    expect(second.body.data.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2 });
    const names = [...first.body.data.categories, ...second.body.data.categories].map((c: { name: string }) => c.name);
    expect(names.sort()).toEqual(['Alfa', 'Beta', 'Gama']);
    const foreign = await v1('GET', '/api/v1/categories?search=alfa', undefined, other);
    expect(foreign.body.data.categories).toEqual([]);
  });

  it.each([
    ['limit 0', 'limit=0', 'limit'],
    ['limit 101', 'limit=101', 'limit'],
    ['page 0', 'page=0', 'page'],
  ])('rejects %s on the list with 400 naming the query parameter', async (_name, query, field) => {
    const response = await v1('GET', `/api/v1/categories?${query}`);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.body.error.details).toContainEqual({ location: 'query', path: field, reason: expect.any(String) });
  });

  it('ignores a query parameter the contract does not declare (the list is the same as without it)', async () => {
    const plain = await v1('GET', '/api/v1/categories?limit=2');
    const withUnknown = await v1('GET', '/api/v1/categories?limit=2&sort=name&_=1700000000');
    expect(withUnknown.status).toBe(200);
    expect(withUnknown.body).toEqual(plain.body);
  });

  it.each([
    ['a name of 1 character', { name: 'A' }, 'name'],
    ['a name of 101 characters', { name: 'x'.repeat(101) }, 'name'],
    ['no name', { description: 'Sem nome' }, 'name'],
    ['a description over 5000 characters', { name: 'Longa', description: 'x'.repeat(5001) }, 'description'],
    ['an unknown field', { name: 'Cores', color: 'azul' }, 'color'],
  ])('rejects a create with %s (400 naming the field)', async (_name, body, field) => {
    const response = await v1('POST', '/api/v1/categories', body);
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
  });

  it('answers 409 DUPLICATE_ENTRY for a slug already in the store, on create and on update', async () => {
    await newCategory('Acessórios');
    const clash = await v1('POST', '/api/v1/categories', { name: 'acessorios!' });
    expect(clash.status).toBe(409);
    expect(clash.body).toMatchObject({
      success: false,
      error: { code: 'DUPLICATE_ENTRY', details: [{ location: 'body', path: 'name' }] },
      meta: { status: 409 },
    });
    const elsewhere = await v1('POST', '/api/v1/categories', { name: 'Acessórios' }, other);
    expect(elsewhere.status).toBe(201);

    const bags = await newCategory('Bolsas');
    const renamed = await v1('PATCH', `/api/v1/categories/${bags.id}`, { name: 'ACESSÓRIOS' });
    expect(renamed.status).toBe(409);
    expect(renamed.body.error.code).toBe('DUPLICATE_ENTRY');
    expect((await v1('GET', `/api/v1/categories/${bags.id}`)).body.data.category).toEqual(bags);
  });

  it('updates only the sent fields (a new name, a new slug), needs at least one field', async () => {
    const category = await newCategory('Calçados', tenant);
    const described = await v1('PATCH', `/api/v1/categories/${category.id}`, { description: 'Tênis e sandálias' });
    expect(described.status).toBe(200);
    expect(described.body.data.category).toEqual({
      ...category,
      description: 'Tênis e sandálias',
      updatedAt: expect.any(String),
    });
    const renamed = await v1('PATCH', `/api/v1/categories/${category.id}`, { name: 'Calçados Femininos' });
    expect(renamed.body.data.category).toEqual({
      ...described.body.data.category,
      name: 'Calçados Femininos',
      slug: 'calcados-femininos',
      updatedAt: expect.any(String),
    });
    const cleared = await v1('PATCH', `/api/v1/categories/${category.id}`, { description: null });
    expect(cleared.body.data.category.description).toBeNull();
    expect((await v1('GET', `/api/v1/categories/${category.id}`)).body.data.category).toEqual(
      cleared.body.data.category,
    );
    const empty = await v1('PATCH', `/api/v1/categories/${category.id}`, {});
    expect(empty.status).toBe(400);
    expect(empty.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('deletes a category and its links, keeping the products', async () => {
    const category = await newCategory('Promoções');
    const productId = await newProduct('Cinto Couro');
    await v1('POST', `/api/v1/categories/${category.id}/products`, { productIds: [productId] });
    const deleted = await v1('DELETE', `/api/v1/categories/${category.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeUndefined();
    expect((await v1('GET', `/api/v1/categories/${category.id}`)).status).toBe(404);
    expect((await v1('DELETE', `/api/v1/categories/${category.id}`)).status).toBe(404);
    expect((await v1('GET', `/api/v1/products/${productId}`)).status).toBe(200);
  });

  it('links products, counts each once however often it is sent, and filters the product list', async () => {
    const category = await newCategory('Inverno');
    const [a, b, c] = [await newProduct('Casaco Lã'), await newProduct('Cachecol'), await newProduct('Luva Térmica')];
    const first = await v1('POST', `/api/v1/categories/${category.id}/products`, { productIds: [a, b, a] });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ success: true, data: { success: true, assignedCount: 2 } });
    const again = await v1('POST', `/api/v1/categories/${category.id}/products`, { productIds: [b, c] });
    expect(again.body).toEqual({ success: true, data: { success: true, assignedCount: 1 } });
    const twice = await v1('POST', `/api/v1/categories/${category.id}/products`, { productIds: [a, b, c] });
    expect(twice.body).toEqual({ success: true, data: { success: true, assignedCount: 0 } });
    expect((await v1('GET', `/api/v1/categories/${category.id}`)).body.data.category.productCount).toBe(3);

    const filtered = await v1('GET', `/api/v1/products?categoryId=${category.id}&limit=100`);
    expect(filtered.status).toBe(200);
    expect(filtered.body.data.products.map((p: { id: string }) => p.id).sort()).toEqual([a, b, c].sort());
    expect(filtered.body.data.pagination.total).toBe(3);
    const none = await v1('GET', `/api/v1/products?categoryId=${UNKNOWN}`);
    expect(none.body.data.products).toEqual([]);

    expect((await v1('DELETE', `/api/v1/products/${c}`)).status).toBe(204);
    expect((await v1('GET', `/api/v1/categories/${category.id}`)).body.data.category.productCount).toBe(2);
  });

  // Creates 250 products first: more than the default 5 s on a busy machine.
  it('accepts 250 ids and rejects 0 or 251 with 400 naming productIds', { timeout: 30_000 }, async () => {
    const category = await newCategory('Atacado');
    const ids = await Promise.all(Array.from({ length: 250 }, (_, index) => newProduct(`Item Atacado ${index}`)));
    const full = await v1('POST', `/api/v1/categories/${category.id}/products`, { productIds: ids });
    expect(full.status).toBe(200);
    expect(full.body.data.assignedCount).toBe(250);
    expect((await v1('GET', `/api/v1/categories/${category.id}`)).body.data.category.productCount).toBe(250);

    for (const productIds of [[], [...ids, UNKNOWN]]) {
      const response = await v1('POST', `/api/v1/categories/${category.id}/products`, { productIds });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('VALIDATION_ERROR');
      expect(response.body.error.details).toContainEqual({
        location: 'body',
        path: 'productIds',
        reason: expect.any(String),
      });
    }
    const notUuid = await v1('POST', `/api/v1/categories/${category.id}/products`, { productIds: ['abc'] });
    expect(notUuid.status).toBe(400);
    expect(notUuid.body.error.details.map((d: { path: string }) => d.path)).toContain('productIds.0');
  });

  it('answers 422 REFERENCE_NOT_FOUND naming the ids that are not products of the store, and links nothing', async () => {
    const category = await newCategory('Presentes');
    const mine = await newProduct('Vela Aromática');
    const theirs = await newProduct('Vela Alheia', other);
    const response = await v1('POST', `/api/v1/categories/${category.id}/products`, {
      productIds: [mine, theirs, UNKNOWN],
    });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({
      success: false,
      error: {
        code: 'REFERENCE_NOT_FOUND',
        message: 'Um ou mais recursos referenciados não existem nesta loja.',
        details: [
          { location: 'body', path: 'productIds.1', reason: expect.stringContaining(theirs) },
          { location: 'body', path: 'productIds.2', reason: expect.stringContaining(UNKNOWN) },
        ],
      },
      meta: { timestamp: expect.any(String), status: 422 },
    });
    expect((await v1('GET', `/api/v1/categories/${category.id}`)).body.data.category.productCount).toBe(0);
    const linked = await v1('GET', `/api/v1/products?categoryId=${category.id}`);
    expect(linked.body.data.products).toEqual([]);
  });

  it('answers 404 RESOURCE_NOT_FOUND for an unknown category and for another store’s, on every operation', async () => {
    const foreign = await newCategory('Categoria Alheia', other);
    const productId = await newProduct('Produto Próprio');
    for (const id of [UNKNOWN, foreign.id]) {
      const responses = [
        await v1('GET', `/api/v1/categories/${id}`),
        await v1('PATCH', `/api/v1/categories/${id}`, { name: 'Tomada' }),
        await v1('DELETE', `/api/v1/categories/${id}`),
        await v1('POST', `/api/v1/categories/${id}/products`, { productIds: [productId] }),
      ];
      for (const response of responses) {
        expect(response.status).toBe(404);
        expect(response.body).toEqual({
          success: false,
          error: { code: 'RESOURCE_NOT_FOUND', message: 'Recurso não encontrado.' },
          meta: { timestamp: expect.any(String), status: 404 },
        });
      }
    }
    expect((await v1('GET', `/api/v1/categories/${foreign.id}`, undefined, other)).body.data.category).toEqual(foreign);
  });

  it('answers 400 for a category id that is not a uuid', async () => {
    const response = await v1('GET', '/api/v1/categories/moda');
    expect(response.status).toBe(400);
    expect(response.body.error.details).toContainEqual({
      location: 'path',
      path: 'categoryId',
      reason: expect.any(String),
    });
  });

  it('denies the write operations to a key with only categories:read (403 AUTH_SCOPE_DENIED)', async () => {
    const reader = await createTenant(server, ['categories:read']);
    expect((await v1('GET', '/api/v1/categories', undefined, reader)).status).toBe(200);
    const writes = [
      await v1('POST', '/api/v1/categories', { name: 'Negada' }, reader),
      await v1('PATCH', `/api/v1/categories/${UNKNOWN}`, { name: 'Negada' }, reader),
      await v1('DELETE', `/api/v1/categories/${UNKNOWN}`, undefined, reader),
      await v1('POST', `/api/v1/categories/${UNKNOWN}/products`, { productIds: [UNKNOWN] }, reader),
    ];
    for (const response of writes) {
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('AUTH_SCOPE_DENIED');
    }
    const writer = await createTenant(server, ['categories:write']);
    expect((await v1('GET', '/api/v1/categories', undefined, writer)).status).toBe(403);
  });
});
