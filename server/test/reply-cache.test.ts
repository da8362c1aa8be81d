import { expect } from 'vitest';
import { newCategory, newProduct } from './catalog.ts';
import { describeEngines, test } from './fixture.ts';

const product = (productId: string) => ({ params: { path: { productId } } });
const category = (categoryId: string) => ({ params: { path: { categoryId } } });

// The reads of REUSABLE_REPLIES are answered again from memory while the embedded store has not changed
// (http/reply-cache.ts), which the server does where it does not check responses against the contract: by default.
// PostgreSQL reads every time; the same reads must see the same changes there.
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
