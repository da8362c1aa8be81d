import type { Kysely, Selectable } from 'kysely';
import type { components } from '../../../generated/openapi.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database, TrackingEventsTable } from '../db/schema.ts';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { flag, flagColumn } from './columns.ts';
import { type PageRequest, pageOf } from './pagination.ts';

type Schemas = components['schemas'];
export type TrackingEvent = Schemas['TrackingEvent'];
/** An event before the server links it to the one before it. */
export type NewTrackingEvent = Omit<TrackingEvent, 'previousStatus' | 'previousLabel'>;
/** An event whose tracking code is settled when it is stored. */
export type DraftTrackingEvent = Omit<NewTrackingEvent, 'trackingCode'>;

/** How the code of an event is chosen: the one given, else the order's, else the generated one. */
export interface TrackingCodeChoice {
  given: string | undefined;
  generated: string;
  /** The order's `tracking` once the event with this code is stored. */
  tracking(code: string): Schemas['OrderTracking'];
}

function toEvent(row: Selectable<TrackingEventsTable>): TrackingEvent {
  return {
    id: row.id,
    status: row.status as Schemas['TrackingStatus'],
    label: row.label,
    previousStatus: row.previous_status,
    previousLabel: row.previous_label,
    createdAt: row.created_at,
    occurredAt: row.occurred_at,
    locationLabel: row.location_label,
    latitude: Number(row.latitude),
    longitude: Number(row.longitude),
    carrier: row.carrier,
    trackingCode: row.tracking_code,
    source: row.source,
    provider: row.provider,
    replayed: flag(row.replayed),
    retryCount: row.retry_count,
    processingState: row.processing_state,
  };
}

/** The order's row lock serializes appends; should two still race for a position, the loser retries. */
const APPEND_ATTEMPTS = 10;

export function trackingEventsRepository(db: Kysely<Database>) {
  async function appendOnce(
    storeId: string,
    orderId: string,
    draft: DraftTrackingEvent,
    code: TrackingCodeChoice,
  ): Promise<TrackingEvent> {
    return inTransaction(db, async (trx) => {
      // Touch the order first: on PostgreSQL this takes its row lock, so appends to one order run one after the
      // other and each reads the code and last event its predecessor committed.
      await trx
        .updateTable('orders')
        .set({ updated_at: draft.createdAt })
        .where('store_id', '=', storeId)
        .where('id', '=', orderId)
        .execute();
      const order = await trx
        .selectFrom('orders')
        .select('tracking_code')
        .where('store_id', '=', storeId)
        .where('id', '=', orderId)
        .executeTakeFirst();
      const trackingCode = code.given ?? order?.tracking_code ?? code.generated;
      const event: NewTrackingEvent = { ...draft, trackingCode };
      const tracking = code.tracking(trackingCode);
      const last = await trx
        .selectFrom('tracking_events')
        .select(['position', 'status', 'label'])
        .where('order_id', '=', orderId)
        .orderBy('position', 'desc')
        .limit(1)
        .executeTakeFirst();
      const linked: TrackingEvent = {
        ...event,
        previousStatus: last?.status ?? null,
        previousLabel: last?.label ?? null,
      };
      await trx
        .insertInto('tracking_events')
        .values({
          id: linked.id,
          store_id: storeId,
          order_id: orderId,
          position: (last?.position ?? 0) + 1,
          status: linked.status,
          label: linked.label,
          previous_status: linked.previousStatus,
          previous_label: linked.previousLabel,
          occurred_at: linked.occurredAt,
          location_label: linked.locationLabel,
          latitude: String(linked.latitude),
          longitude: String(linked.longitude),
          carrier: linked.carrier,
          tracking_code: linked.trackingCode,
          source: linked.source,
          provider: linked.provider,
          replayed: flagColumn(linked.replayed),
          retry_count: linked.retryCount,
          processing_state: linked.processingState,
          created_at: linked.createdAt,
        })
        .execute();
      await trx
        .updateTable('orders')
        .set({
          tracking_code: tracking.code,
          tracking_url: tracking.url,
          tracking_status: tracking.status,
          tracking_status_label: tracking.statusLabel,
          tracking_updated_at: tracking.updatedAt,
          updated_at: event.createdAt,
        })
        .where('store_id', '=', storeId)
        .where('id', '=', orderId)
        .execute();
      return linked;
    });
  }

  return {
    /**
     * Adds the event after the order's last one (linking `previousStatus`/`previousLabel`), settles its tracking
     * code against the order's and sets the order's `tracking`, in one transaction.
     */
    async append(
      storeId: string,
      orderId: string,
      draft: DraftTrackingEvent,
      code: TrackingCodeChoice,
    ): Promise<TrackingEvent> {
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await appendOnce(storeId, orderId, draft, code);
        } catch (error) {
          if (!isUniqueViolation(error) || attempt >= APPEND_ATTEMPTS) throw error;
        }
      }
    },

    /** The order's timeline, oldest first. */
    async list(storeId: string, orderId: string, request: PageRequest) {
      const query = db.selectFrom('tracking_events').where('store_id', '=', storeId).where('order_id', '=', orderId);
      const counted = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
      const page = pageOf(request, Number(counted?.n ?? 0), 50);
      const rows = await query.selectAll().orderBy('position').limit(page.limit).offset(page.offset).execute();
      return { events: rows.map(toEvent), page };
    },
  };
}

export type TrackingEventsRepository = ReturnType<typeof trackingEventsRepository>;
