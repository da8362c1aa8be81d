import type { Kysely } from 'kysely';
import type { components, operations } from '../../../../generated/openapi.ts';
import { flag, money } from '../../db/column-codecs.ts';
import { FILTER_ONLY_EQUALS } from '../../db/filter-only-equals.ts';
import { inTransaction } from '../../db/in-transaction.ts';
import { type StoredOf, storeTable } from '../../db/store-table.ts';
import { DuplicateRecord } from '../../domain/duplicate-record.ts';
import type { Database } from '../index.ts';

type Schemas = components['schemas'];
export type TrackingEvent = Schemas['TrackingEvent'];
/** An event whose tracking code and link to the event before it are settled when it is stored. */
export type DraftTrackingEvent = Omit<TrackingEvent, 'trackingCode' | 'previousStatus' | 'previousLabel'>;
type ListOrderTrackingEventsQuery = NonNullable<operations['listOrderTrackingEvents']['parameters']['query']>;

/** How the code of an event is chosen: the one given, else the order's, else the generated one. */
export interface TrackingCodeChoice {
  given: string | undefined;
  generated: string;
  /** The order's `tracking` once the event with this code is stored. */
  tracking(code: string): Schemas['OrderTracking'];
}

// Coordinates are kept as the exact decimal text of the number sent, as money is.
const eventColumns = { latitude: money, longitude: money, replayed: flag };

/** The read shape: the row without its order, store and position. */
const eventOf = ({
  storeId: _store,
  orderId: _order,
  position: _position,
  ...event
}: StoredOf<'tracking_events', typeof eventColumns>): TrackingEvent => event;

/** The order's row lock serializes appends; should two still race for a position, the loser retries. */
const APPEND_ATTEMPTS = 10;

/** One attempt at appending the event (see `createTrackingEvent`). */
async function appendOnce(
  db: Kysely<Database>,
  storeId: string,
  orderId: string,
  draft: DraftTrackingEvent,
  code: TrackingCodeChoice,
): Promise<TrackingEvent> {
  return inTransaction(db, async (trx) => {
    // Touch the order first: on PostgreSQL this takes its row lock, so appends to one order run one after the
    // other and each reads the code and last event its predecessor committed.
    const order = await trx
      .updateTable('orders')
      .set({ updated_at: draft.createdAt })
      .where('store_id', FILTER_ONLY_EQUALS, storeId)
      .where('id', '=', orderId)
      .returning('tracking_code')
      .executeTakeFirst();
    const trackingCode = code.given ?? order?.tracking_code ?? code.generated;
    const last = await trx
      .selectFrom('tracking_events')
      .select(['position', 'status', 'label'])
      .where('order_id', '=', orderId)
      .orderBy('position', 'desc')
      .limit(1)
      .executeTakeFirst();
    const stored = {
      ...draft,
      trackingCode,
      previousStatus: last?.status ?? null,
      previousLabel: last?.label ?? null,
      storeId,
      orderId,
      position: (last?.position ?? 0) + 1,
    };
    await storeTable(trx, 'tracking_events', eventColumns).insert(stored);
    const tracking = code.tracking(trackingCode);
    await trx
      .updateTable('orders')
      .set({
        tracking_code: tracking.code,
        tracking_url: tracking.url,
        tracking_status: tracking.status,
        tracking_status_label: tracking.statusLabel,
        tracking_updated_at: tracking.updatedAt,
        updated_at: draft.createdAt,
      })
      .where('store_id', FILTER_ONLY_EQUALS, storeId)
      .where('id', '=', orderId)
      .execute();
    return eventOf(stored);
  });
}

export function trackingEventsRepository(db: Kysely<Database>) {
  const events = storeTable(db, 'tracking_events', eventColumns);

  return {
    /**
     * Adds the event after the order's last one (linking `previousStatus`/`previousLabel`), settles its tracking
     * code against the order's and sets the order's `tracking`, in one transaction.
     */
    async createTrackingEvent(
      storeId: string,
      orderId: string,
      draft: DraftTrackingEvent,
      code: TrackingCodeChoice,
    ): Promise<TrackingEvent> {
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await appendOnce(db, storeId, orderId, draft, code);
        } catch (error) {
          // Another append took the position (the unique (order_id, position) refused this one).
          if (!(error instanceof DuplicateRecord) || attempt >= APPEND_ATTEMPTS) throw error;
        }
      }
    },

    /** The order's timeline, oldest first. */
    async listOrderTrackingEvents(storeId: string, orderId: string, query: ListOrderTrackingEventsQuery) {
      const { records, pagination } = await events.page(
        storeId,
        query,
        (rows) => rows.where('order_id', '=', orderId),
        [['position', 'asc']],
      );
      return { events: records.map(eventOf), pagination };
    },
  };
}
