import { describe, expect, it } from 'vitest';
import { newCategory, newProduct } from './catalog.ts';
import { adminAt, type Child, clientAt, spawnServer, stopServer, tenantOn } from './child-server.ts';
import { deletedAnswer, deletion } from './deletion.ts';
import { describeEngines, test } from './fixture.ts';
import { childLocation, engines } from './harness.ts';

const product = (productId: string) => ({ params: { path: { productId } } });
const category = (categoryId: string) => ({ params: { path: { categoryId } } });

// The reads of REUSABLE_REPLIES are answered again from memory while the store has not changed
// (http/reply-cache.ts): on the embedded store while its WAL index says so, on PostgreSQL while its snapshot does.
describeEngines(
  'replies read again only while nothing changed',
  () => {
    test('getProductById answers each change at once: through the API, through another connection to the same data (another process or instance), and a delete', async ({
      api,
      admin,
      stored,
      tenant,
    }) => {
      const created = await newProduct(api, 'Caneca Azul');
      const read = () => api.GET('/api/v1/products/{productId}', product(created.id));
      const first = await read();
      expect(first.data).toEqual({ success: true, data: { product: { ...created, variants: [] } } });
      expect((await read()).data).toEqual(first.data);

      const patched = await api.PATCH('/api/v1/products/{productId}', {
        ...product(created.id),
        body: { name: 'Caneca Verde' },
      });
      expect(patched.data?.data.product.name).toBe('Caneca Verde');
      expect((await read()).data?.data.product).toEqual({ ...patched.data?.data.product, variants: [] });

      const variant = await admin.POST('/admin/products/{productId}/variants', {
        ...product(created.id),
        body: { title: 'Grande', price: 12, stock: 3, status: 'ACTIVE' },
      });
      expect(variant.response.status).toBe(201);
      expect((await read()).data?.data.product.variants).toEqual([variant.data?.data.variant]);

      const record = await stored.products.getProductById(tenant.storeId, created.id);
      if (!record) throw new Error('the product is not stored');
      await stored.products.updateProduct({ ...record, name: 'Caneca Roxa' });
      expect((await read()).data?.data.product.name).toBe('Caneca Roxa');

      await stored.products.deleteProduct(tenant.storeId, created.id);
      const gone = await read();
      expect(gone.response.status).toBe(404);
      expect(gone.error).toEqual({
        success: false,
        error: { code: 'RESOURCE_NOT_FOUND', message: 'Recurso não encontrado.' },
        meta: { timestamp: expect.any(String), status: 404 },
      });
    });

    test('getCategoryById counts the products assigned since it was last read', async ({ api }) => {
      const created = await newCategory(api, 'Cozinha');
      const read = () => api.GET('/api/v1/categories/{categoryId}', category(created.id));
      expect((await read()).data?.data.category.productCount).toBe(0);
      const productId = (await newProduct(api, 'Caneca Azul')).id;
      await api.POST('/api/v1/categories/{categoryId}/products', {
        ...category(created.id),
        body: { productIds: [productId] },
      });
      expect((await read()).data?.data.category).toEqual({ ...created, productCount: 1 });
    });
  },
  { env: { VALIDATE_RESPONSES: 'false' } },
);

// Separate processes: each remembers replies of its own, and only the store's version tells it of the other's writes.
describe.runIf(engines.includes('postgres'))('replies across instances on one PostgreSQL', { timeout: 60_000 }, () => {
  const { env } = childLocation('postgres');

  it('a product changed through one instance is read at once, changed, through another that has just read it', async () => {
    const instances = [await spawnServer(env), await spawnServer(env)];
    try {
      const [first, second] = instances as [Child, Child];
      const tenant = await tenantOn(first, 'Loja Compartilhada');
      const writer = clientAt(first, tenant.headers);
      const reader = clientAt(second, tenant.headers);
      const created = await newProduct(writer, 'Caneca 0');
      const read = () => reader.GET('/api/v1/products/{productId}', product(created.id));
      for (let change = 1; change <= 20; change += 1) {
        // Read twice on the second instance (the second answer may be its remembered one), then change it on the first.
        expect((await read()).data?.data.product.name).toBe(`Caneca ${change - 1}`);
        expect((await read()).data?.data.product.name).toBe(`Caneca ${change - 1}`);
        const patched = await writer.PATCH('/api/v1/products/{productId}', {
          ...product(created.id),
          body: { name: `Caneca ${change}` },
        });
        expect(patched.response.status).toBe(200);
      }
      expect((await read()).data?.data.product.name).toBe('Caneca 20');

      const variant = await adminAt(first).POST('/admin/products/{productId}/variants', {
        ...product(created.id),
        body: { title: 'Grande', price: 12, stock: 3, status: 'ACTIVE' },
      });
      expect(variant.response.status).toBe(201);
      expect((await read()).data?.data.product.variants).toEqual([variant.data?.data.variant]);

      expect(await deletion(writer.DELETE('/api/v1/products/{productId}', product(created.id)))).toEqual(
        deletedAnswer(created.id),
      );
      expect((await read()).response.status).toBe(404);
    } finally {
      for (const instance of instances) await stopServer(instance);
    }
  });
});
