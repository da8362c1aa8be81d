import { expect } from 'vitest';
import { readContract } from '../../../../lib/contract.ts';
import { UNKNOWN } from '../../../test/catalog.ts';
import { describeEngines, malformed, test, withoutDefaults } from '../../../test/fixture.ts';
import { newOrder } from '../../../test/orders.ts';
import type { TrackingEventCreate, TrackingStatus } from '../../../test/records.ts';
import { atOrderId as at } from '../../../test/records.ts';
import type { ById } from '../../../test/store-scoped.ts';
import { expectInvalid, expectNotFoundAlike, expectPageBounds, expectScopeDenied } from '../../../test/store-scoped.ts';

/** The carrier's page for a code, by the contract's `OrderTracking` › `url` › `x-url-template`. */
const trackingUrl = (code: string) =>
  String(readContract().pointer('#/components/schemas/OrderTracking/properties/url/x-url-template')).replace(
    '{code}',
    encodeURIComponent(code),
  );
/** A tracking event as a carrier sends it: what it leaves out takes the contract's defaults. */
const carrierUpdate = withoutDefaults<TrackingEventCreate>;

describeEngines('tracking events', () => {
  test('createTrackingEvent (201) fills the defaults, links each event to the one before and sets the order’s tracking', async ({
    api,
    admin,
    tenant,
  }) => {
    const order = await newOrder(admin, tenant.storeId);
    const first = await admin.POST('/admin/orders/{orderId}/tracking-events', {
      ...at(order.id),
      body: carrierUpdate({ status: 'label_generated' }),
    });
    expect(first.response.status).toBe(201);
    const labelled = first.data?.data.event;
    const code = labelled?.trackingCode ?? '';
    expect(code).toMatch(/^BR[0-9]{9}BR$/);
    expect(first.data).toEqual({
      success: true,
      data: {
        event: {
          id: expect.any(String),
          status: 'label_generated',
          label: 'Etiqueta gerada',
          previousStatus: null,
          previousLabel: null,
          createdAt: expect.any(String),
          occurredAt: labelled?.createdAt,
          locationLabel: '',
          latitude: 0,
          longitude: 0,
          carrier: 'Correios',
          trackingCode: code,
          source: 'admin_api',
          provider: 'correios',
          replayed: false,
          retryCount: 0,
          processingState: 'processed',
        },
      },
    });
    const posted = {
      status: 'posted',
      occurredAt: '2026-11-21T08:15:00.000Z',
      locationLabel: 'Agência Pinheiros - São Paulo - SP',
      latitude: -23.5614,
      longitude: -46.6823,
      carrier: 'Correios',
      source: 'carrier_api',
      provider: 'correios',
    } as const;
    const second = await admin.POST('/admin/orders/{orderId}/tracking-events', {
      ...at(order.id),
      // Sent at São Paulo's offset, kept as the same instant in UTC.
      body: carrierUpdate({ ...posted, occurredAt: '2026-11-21T05:15:00-03:00' }),
    });
    expect(second.response.status).toBe(201);
    expect(second.data).toEqual({
      success: true,
      data: {
        event: {
          ...posted,
          id: expect.any(String),
          label: 'Postado',
          previousStatus: 'label_generated',
          previousLabel: 'Etiqueta gerada',
          createdAt: expect.any(String),
          trackingCode: code,
          replayed: false,
          retryCount: 0,
          processingState: 'processed',
        },
      },
    });
    expect((await api.GET('/api/v1/orders/{orderId}', at(order.id))).data?.data.order).toEqual({
      ...order,
      tracking: {
        code,
        url: trackingUrl(code),
        status: 'posted',
        statusLabel: 'Postado',
        updatedAt: '2026-11-21T08:15:00.000Z',
      },
      updatedAt: expect.any(String),
    });
  });

  test('listOrderTrackingEvents answers the timeline oldest first, 50 per page unless asked', async ({
    api,
    admin,
    tenant,
  }) => {
    const order = await newOrder(admin, tenant.storeId);
    const track = async (status: TrackingStatus) =>
      (
        await admin.POST('/admin/orders/{orderId}/tracking-events', {
          ...at(order.id),
          body: carrierUpdate({ status }),
        })
      ).data?.data.event;
    const first = await track('label_generated');
    const second = await track('posted');
    expect(second).toMatchObject({ previousStatus: 'label_generated', trackingCode: first?.trackingCode });
    const timeline = await api.GET('/api/v1/orders/{orderId}/tracking', at(order.id));
    expect(timeline.response.status).toBe(200);
    expect(timeline.data).toEqual({
      success: true,
      data: { events: [first, second], pagination: { page: 1, limit: 50, total: 2, totalPages: 1 } },
    });
    const paged = await api.GET('/api/v1/orders/{orderId}/tracking', {
      params: { path: { orderId: order.id }, query: { limit: 1, page: 2 } },
    });
    expect(paged.data).toEqual({
      success: true,
      data: { events: [second], pagination: { page: 2, limit: 1, total: 2, totalPages: 2 } },
    });
  });

  test.for([
    ['in_transit', 'Em trânsito'],
    ['out_for_delivery', 'Saiu para entrega'],
    ['delivered', 'Entregue'],
    ['delivery_failed', 'Falha na entrega'],
    ['returned', 'Devolvido'],
  ] as const)(
    'createTrackingEvent labels %s as %s and keeps a given tracking code',
    async ([status, label], { api, admin, tenant }) => {
      const order = await newOrder(admin, tenant.storeId);
      const created = await admin.POST('/admin/orders/{orderId}/tracking-events', {
        ...at(order.id),
        body: carrierUpdate({ status, trackingCode: 'BR123456789BR' }),
      });
      const event = created.data?.data.event;
      expect(created.response.status).toBe(201);
      expect(event).toEqual({
        id: expect.any(String),
        status,
        label,
        previousStatus: null,
        previousLabel: null,
        createdAt: expect.any(String),
        occurredAt: event?.createdAt,
        locationLabel: '',
        latitude: 0,
        longitude: 0,
        carrier: 'Correios',
        trackingCode: 'BR123456789BR',
        source: 'admin_api',
        provider: 'correios',
        replayed: false,
        retryCount: 0,
        processingState: 'processed',
      });
      expect((await api.GET('/api/v1/orders/{orderId}', at(order.id))).data?.data.order.tracking).toEqual({
        code: 'BR123456789BR',
        url: trackingUrl('BR123456789BR'),
        status,
        statusLabel: label,
        updatedAt: event?.occurredAt,
      });
    },
  );

  test('createTrackingEvent keeps the timeline a single chain with one code when carrier events arrive concurrently', async ({
    api,
    admin,
    tenant,
  }) => {
    const order = await newOrder(admin, tenant.storeId);
    const statuses: TrackingStatus[] = ['label_generated', 'posted', 'in_transit', 'out_for_delivery', 'delivered'];
    const responses = await Promise.all(
      statuses.map((status) =>
        admin.POST('/admin/orders/{orderId}/tracking-events', { ...at(order.id), body: carrierUpdate({ status }) }),
      ),
    );
    expect(responses.map(({ response }) => response.status)).toEqual(statuses.map(() => 201));
    const events = (await api.GET('/api/v1/orders/{orderId}/tracking', at(order.id))).data?.data.events ?? [];
    expect(events).toHaveLength(statuses.length);
    expect(events.map((event) => event.id).sort()).toEqual(responses.map(({ data }) => data?.data.event.id).sort());
    expect(events[0]?.previousStatus).toBeNull();
    for (const [index, event] of events.entries()) {
      if (index === 0) continue;
      expect(event).toMatchObject({
        previousStatus: events[index - 1]?.status,
        previousLabel: events[index - 1]?.label,
      });
    }
    // The first stored event settles the order's code; every later one, however concurrent, reuses it.
    expect(new Set(events.map((event) => event.trackingCode)).size).toBe(1);
    const last = events[events.length - 1];
    expect((await api.GET('/api/v1/orders/{orderId}', at(order.id))).data?.data.order.tracking).toEqual({
      code: events[0]?.trackingCode,
      url: trackingUrl(events[0]?.trackingCode ?? ''),
      status: last?.status,
      statusLabel: last?.label,
      updatedAt: last?.occurredAt,
    });
  });

  test('listOrderTrackingEvents starts each order’s timeline empty and keeps the timelines apart', async ({
    api,
    admin,
    tenant,
  }) => {
    const order = await newOrder(admin, tenant.storeId);
    const other = await newOrder(admin, tenant.storeId);
    await admin.POST('/admin/orders/{orderId}/tracking-events', {
      ...at(other.id),
      body: carrierUpdate({ status: 'posted' }),
    });
    const empty = await api.GET('/api/v1/orders/{orderId}/tracking', at(order.id));
    expect(empty.data).toEqual({
      success: true,
      data: { events: [], pagination: { page: 1, limit: 50, total: 0, totalPages: 0 } },
    });
  });

  test.for([
    ['no status', {}, 'status'],
    ['an unknown status', { status: 'lost' }, 'status'],
    ['a latitude beyond 90', { status: 'posted', latitude: 91 }, 'latitude'],
    ['a location over 255 characters', { status: 'posted', locationLabel: 'x'.repeat(256) }, 'locationLabel'],
  ] as const)(
    'createTrackingEvent rejects %s (400 VALIDATION_ERROR)',
    async ([, body, field], { api, admin, tenant }) => {
      const order = await newOrder(admin, tenant.storeId);
      expectInvalid(
        await admin.POST('/admin/orders/{orderId}/tracking-events', {
          ...at(order.id),
          body: malformed(body),
        }),
        field,
      );
      expect((await api.GET('/api/v1/orders/{orderId}/tracking', at(order.id))).data?.data.events).toEqual([]);
    },
  );

  test('listOrderTrackingEvents and createTrackingEvent answer 404 RESOURCE_NOT_FOUND for unknown and foreign orders', async ({
    api,
    admin,
    otherStore,
    tenant,
  }) => {
    const order = await newOrder(admin, tenant.storeId);
    const list: ById = (client, id) => client.GET('/api/v1/orders/{orderId}/tracking', at(id));
    await expectNotFoundAlike([list], list, { api, otherStore }, order.id);
    const tracking = await admin.POST('/admin/orders/{orderId}/tracking-events', {
      ...at(UNKNOWN),
      body: carrierUpdate({ status: 'posted' }),
    });
    expect(tracking.response.status).toBe(404);
    expect(tracking.error).toMatchObject({ error: { code: 'RESOURCE_NOT_FOUND' } });
  });

  test('listOrderTrackingEvents rejects limit 0 and 101 and page 0 (400 VALIDATION_ERROR naming the parameter)', async ({
    api,
    admin,
    tenant,
  }) => {
    const order = await newOrder(admin, tenant.storeId);
    await expectPageBounds((query) =>
      api.GET('/api/v1/orders/{orderId}/tracking', { params: { path: { orderId: order.id }, query } }),
    );
  });

  test('listOrderTrackingEvents needs the orders:read scope (403 AUTH_SCOPE_DENIED)', async ({
    admin,
    tenant,
    withScopes,
  }) => {
    const order = await newOrder(admin, tenant.storeId);
    const productsOnly = await withScopes(['products:read']);
    expectScopeDenied([await productsOnly.GET('/api/v1/orders/{orderId}/tracking', at(order.id))]);
  });
});
