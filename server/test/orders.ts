import type { components } from '../../generated/openapi.ts';
import { type AdminApi, withoutDefaults } from './fixture.ts';

type AdminOrderCreate = components['schemas']['AdminOrderCreate'];

/**
 * An order of the store through the admin API (createOrder fills what the body leaves out); fails the test when
 * not created.
 */
export async function newOrder(admin: AdminApi, storeId: string, body: Partial<AdminOrderCreate> = {}) {
  const created = await admin.POST('/admin/stores/{storeId}/orders', {
    params: { path: { storeId } },
    body: withoutDefaults<AdminOrderCreate>(body),
  });
  const order = created.data?.data.order;
  if (!order) throw new Error(`createOrder answered ${created.response.status}`);
  return order;
}
