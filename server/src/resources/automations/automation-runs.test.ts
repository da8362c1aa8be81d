import createClient from 'openapi-fetch';
import { expect, vi } from 'vitest';
import type { components, paths } from '../../../../generated/openapi.ts';
import { action, detailPaths, emailTemplate, flow, newTemplate, UNKNOWN } from '../../../test/catalog.ts';
import { type AdminApi, type Api, describeEngines, malformed, test, withoutDefaults } from '../../../test/fixture.ts';
import { newOrder } from '../../../test/orders.ts';
import type { AdminOrderCreate, Steps, StoreEventCreate } from '../../../test/records.ts';

/** raiseStoreEvent for the store, as the admin (or with other credentials, for the 401). */
const raise = (as: AdminApi, storeId: string, body: StoreEventCreate) =>
  as.POST('/admin/stores/{storeId}/events', { params: { path: { storeId } }, body });

/** createAutomation, then updateAutomation to switch it on unless `active` is false; the automation. */
async function newAutomation(api: Api, body: components['schemas']['AutomationCreate'], active = true) {
  const created = (await api.POST('/api/v1/automations', { body })).data?.data.automation;
  if (!created) throw new Error('createAutomation failed');
  if (active) {
    await api.PATCH('/api/v1/automations/{automationId}', {
      params: { path: { automationId: created.id } },
      body: { active: true },
    });
  }
  return created;
}

describeEngines(
  'automation runs',
  () => {
    test('raiseStoreEvent runs the active automations of the event: delays, then actions write the outbox', async ({
      api,
      admin,
      tenant,
      otherTenant,
      stored,
    }) => {
      const email = await newTemplate(api, emailTemplate);
      const steps: Steps = [
        { id: 'espera', type: 'delay', minutes: 1, nextId: 'email' },
        action('send_email', { template_id: email }, { id: 'email', nextId: 'sms' }),
        action('send_sms', { message: 'PIX {{order.id}} vence hoje' }, { id: 'sms' }),
        action('send_whatsapp', { message: 'nunca enviada' }, { id: 'fora-da-cadeia' }),
      ];
      const active = await newAutomation(api, { ...flow(email), steps });
      await newAutomation(api, { ...flow(email), steps }, false); // inactive: not started
      await newAutomation(api, { ...flow(email), trigger_event: 'order.paid', steps }); // other trigger: not started

      const orderId = (await newOrder(admin, tenant.storeId)).id;
      const raised = await raise(admin, tenant.storeId, { name: 'pix.generated', orderId });
      expect(raised.response.status).toBe(202);
      expect(raised.data).toEqual({
        success: true,
        data: {
          event: {
            id: expect.any(String),
            name: 'pix.generated',
            orderId,
            automationRunIds: [expect.any(String)],
            acceptedAt: expect.any(String),
          },
        },
      });
      const [runId] = raised.data?.data.event.automationRunIds ?? [];
      if (!runId) throw new Error('no run');
      await vi.waitFor(
        async () => expect((await stored.automationRuns.findRun(tenant.storeId, runId))?.status).toBe('completed'),
        { timeout: 5000, interval: 20 },
      );
      const run = await stored.automationRuns.findRun(tenant.storeId, runId);
      expect(run).toMatchObject({ automationId: active.id, eventName: 'pix.generated', orderId, error: null });
      expect(await stored.automationRuns.runOutbox(tenant.storeId, runId)).toEqual([
        expect.objectContaining({
          position: 0,
          stepId: 'email',
          operation: 'send_email',
          channel: 'email',
          templateId: email,
          subject: emailTemplate.subject,
          content: `Olá, use o PIX do pedido ${orderId}.`,
        }),
        expect.objectContaining({
          position: 1,
          stepId: 'sms',
          operation: 'send_sms',
          channel: 'sms',
          templateId: null,
          subject: null,
          content: `PIX ${orderId} vence hoje`,
        }),
      ]);
      expect(await stored.automationRuns.runOutbox(otherTenant.storeId, runId)).toEqual([]);
    });

    test('changeOrderStatus to PAID starts order.paid automations, and nothing for events no automation listens to', async ({
      api,
      admin,
      tenant,
      stored,
    }) => {
      const steps = [action('send_sms', { message: 'Pedido {{order.id}} pago' }, { id: 'sms' })];
      const onPaid = await newAutomation(api, { ...flow(UNKNOWN), trigger_event: 'order.paid', steps });
      const order = await admin.POST('/admin/stores/{storeId}/orders', {
        params: { path: { storeId: tenant.storeId } },
        body: withoutDefaults<AdminOrderCreate>({ status: 'PENDING' }),
      });
      expect(order.response.status).toBe(201);
      expect(await stored.automationRuns.runsOfAutomation(tenant.storeId, onPaid.id)).toEqual([]);
      const orderId = order.data?.data.order.id ?? UNKNOWN;
      const paid = await api.POST('/api/v1/orders/{orderId}/status', {
        params: { path: { orderId } },
        body: { status: 'PAID' },
      });
      expect(paid.response.status).toBe(200);
      await vi.waitFor(
        async () => {
          const runs = await stored.automationRuns.runsOfAutomation(tenant.storeId, onPaid.id);
          expect(runs).toEqual([expect.objectContaining({ eventName: 'order.paid', orderId, status: 'completed' })]);
        },
        { timeout: 5000, interval: 20 },
      );
      const [run] = await stored.automationRuns.runsOfAutomation(tenant.storeId, onPaid.id);
      expect((await stored.automationRuns.runOutbox(tenant.storeId, run?.id ?? '')).map((m) => m.content)).toEqual([
        `Pedido ${orderId} pago`,
      ]);
    });

    test('raiseStoreEvent: a run ends failed when its template was deleted after activation; earlier messages stay sent', async ({
      api,
      admin,
      tenant,
      stored,
    }) => {
      const whatsapp = await newTemplate(api, { channel: 'whatsapp', message: 'Oi!' });
      const steps = [
        action('send_sms', { message: 'Primeira' }, { id: 'sms', nextId: 'zap' }),
        action('send_whatsapp', { template_id: whatsapp }, { id: 'zap' }),
      ];
      const automation = await newAutomation(api, { ...flow(UNKNOWN), steps });
      await api.DELETE('/api/v1/automation/templates/{templateId}', { params: { path: { templateId: whatsapp } } });
      const raised = await raise(admin, tenant.storeId, { name: 'pix.generated' });
      expect(raised.data?.data.event.orderId).toBeNull();
      const [runId] = raised.data?.data.event.automationRunIds ?? [];
      if (!runId) throw new Error('no run');
      await vi.waitFor(
        async () => expect((await stored.automationRuns.findRun(tenant.storeId, runId))?.status).toBe('failed'),
        { timeout: 5000, interval: 20 },
      );
      expect((await stored.automationRuns.findRun(tenant.storeId, runId))?.error).toEqual(expect.any(String));
      expect((await stored.automationRuns.runOutbox(tenant.storeId, runId)).map((m) => m.content)).toEqual([
        'Primeira',
      ]);
      // Now that the template is gone the flow no longer validates.
      const switched = await api.PATCH('/api/v1/automations/{automationId}', {
        params: { path: { automationId: automation.id } },
        body: { name: 'Outro' },
      });
      expect(switched.response.status).toBe(400);
      expect(detailPaths(switched.error)).toEqual(['steps.1.data.template_id']);
    });

    test("raiseStoreEvent refuses an orderId that is no order of the store, another store's as an unknown one (422 naming it)", async ({
      admin,
      tenant,
      otherTenant,
    }) => {
      for (const orderId of [(await newOrder(admin, otherTenant.storeId)).id, UNKNOWN]) {
        const refused = await raise(admin, tenant.storeId, { name: 'pix.generated', orderId });
        expect({ status: refused.response.status, body: refused.error }).toEqual({
          status: 422,
          body: {
            success: false,
            error: {
              message: 'Um ou mais recursos referenciados não existem nesta loja.',
              code: 'REFERENCE_NOT_FOUND',
              details: [{ location: 'body', path: 'orderId', reason: `pedido não encontrado: ${orderId}` }],
            },
            meta: { timestamp: expect.any(String), status: 422 },
          },
        });
      }
      const own = await raise(admin, tenant.storeId, {
        name: 'pix.generated',
        orderId: (await newOrder(admin, tenant.storeId)).id,
      });
      expect(own.response.status).toBe(202);
    });

    test('raiseStoreEvent with no matching automation (202, no runs), 404 for an unknown store, 401 without the admin token', async ({
      server,
      admin,
      tenant,
    }) => {
      const none = await raise(admin, tenant.storeId, { name: 'lead.created' });
      expect(none.response.status).toBe(202);
      expect(none.data?.data.event.automationRunIds).toEqual([]);
      const unknown = await raise(admin, UNKNOWN, { name: 'pix.generated' });
      expect(unknown.response.status).toBe(404);
      expect(unknown.error).toMatchObject({ error: { code: 'RESOURCE_NOT_FOUND' } });
      const badEvent = await raise(admin, tenant.storeId, malformed({ name: 'pix.expired' }));
      expect(badEvent.response.status).toBe(400);
      expect(badEvent.error).toMatchObject({ error: { details: [{ location: 'body', path: 'name' }] } });
      const tenantKey = createClient<paths>({ baseUrl: server.baseUrl, headers: tenant.headers });
      const anonymous = await raise(tenantKey, tenant.storeId, { name: 'pix.generated' });
      expect(anonymous.response.status).toBe(401);
    });
  },
  { env: { AUTOMATION_MINUTE_MS: '1' } },
);
