import { type Kysely, sql } from 'kysely';
import type { components, operations } from '../../../../generated/openapi.ts';
import { claimIfDue } from '../../db/claim-if-due.ts';
import { compiledOnce } from '../../db/compiled-once.ts';
import type { Engine } from '../../db/database.ts';
import { FILTER_ONLY_EQUALS } from '../../db/filter-only-equals.ts';
import { inTransaction } from '../../db/in-transaction.ts';
import { ANSWERED_LATER_SQL } from '../../db/pg-answered-later.ts';
import { type PageRequest, pageOf, storeTable } from '../../db/store-table.ts';
import type { Database } from '../index.ts';
import { type WebhookRecord, webhookColumns } from './repository.ts';
import type { WebhookDeliveriesTable, WebhookDeliveryAttemptsTable } from './table.ts';

type Schemas = components['schemas'];
type WebhookEventName = Schemas['WebhookEventName'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
type ListWebhookDeliveriesQuery = NonNullable<operations['listWebhookDeliveries']['parameters']['query']>;

/** A delivery the worker has claimed: the row, the number of this attempt and the webhook as it is now. */
export interface ClaimedDelivery {
  delivery: WebhookDeliveriesTable;
  attempt: number;
  webhook: WebhookRecord;
}

/** How one attempt ended. */
export interface AttemptOutcome {
  attemptedAt: string;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  delivered: boolean;
  /** When the next attempt is due should this one have failed and attempts remain. */
  retryAt: string;
}

const attemptOf = (row: WebhookDeliveryAttemptsTable): Schemas['WebhookDeliveryAttempt'] => ({
  attempt: Number(row.attempt),
  attemptedAt: row.attempted_at,
  statusCode: row.status_code === null ? null : Number(row.status_code),
  durationMs: Number(row.duration_ms),
  error: row.error,
});

/** The read shape of the rows, each with its attempts. */
async function deliveriesOf(db: Kysely<Database>, rows: WebhookDeliveriesTable[]): Promise<WebhookDelivery[]> {
  const ids = rows.map((row) => row.id);
  const attempts =
    ids.length === 0
      ? []
      : await db
          .selectFrom('webhook_delivery_attempts')
          .selectAll()
          .where('delivery_id', 'in', ids)
          .orderBy('attempt')
          .execute();
  return rows.map((row) => ({
    id: row.id,
    webhookId: row.webhook_id,
    messageId: row.message_id,
    eventType: row.event_type,
    status: row.status,
    attempts: attempts.filter((attempt) => attempt.delivery_id === row.id).map(attemptOf),
    nextAttemptAt: row.next_attempt_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }));
}

/** An event, as the outbox hands it to its subscribers: one message (id and body) for all of them. */
export interface OutboxMessage {
  storeId: string;
  event: WebhookEventName;
  messageId: string;
  body: string;
  at: string;
}

/**
 * One PENDING delivery of the message per active webhook of the store subscribed to the event, due at once, as
 * one statement: the subscribers are read by the insert itself, so nothing waits for them, and on PostgreSQL the
 * statement leaves with the COMMIT (pg-answered-later.ts). Its ids are `new_id()`'s, a UUID of version 7 as every
 * id the server assigns (server/migrations/008_new_id.postgres.sql; database.ts › connectSqlite).
 */
const enqueueForSubscribers = compiledOnce((db: Kysely<Database>) =>
  db
    .insertInto('webhook_deliveries')
    .columns([
      'id',
      'store_id',
      'webhook_id',
      'message_id',
      'event_type',
      'payload',
      'status',
      'attempts',
      'max_attempts',
      'next_attempt_at',
      'created_at',
      'updated_at',
    ])
    .expression((eb) =>
      eb
        .selectFrom('webhooks')
        .innerJoin('webhook_events', 'webhook_events.webhook_id', 'webhooks.id')
        .select([
          sql<string>`new_id()`.as('id'),
          'webhooks.store_id',
          'webhooks.id',
          eb.val('').as('message_id'),
          'webhook_events.event',
          eb.val('').as('payload'),
          sql.lit('PENDING').as('status'),
          sql.lit(0).as('attempts'),
          sql<number>`1 + webhooks.retry_attempts`.as('max_attempts'),
          eb.val('').as('next_attempt_at'),
          eb.val('').as('created_at'),
          eb.val('').as('updated_at'),
        ])
        .where('webhook_events.store_id', '=', '')
        .where('webhook_events.event', '=', '' as WebhookEventName)
        .where('webhook_events.active', '=', 1),
    )
    .modifyEnd(ANSWERED_LATER_SQL),
);

/** The delivery log the API reads: what the outbox wrote, listed with its attempts, and redeliveries. */
function deliveryLog(db: Kysely<Database>) {
  return {
    /** Writes the message's deliveries (the outbox: in the transaction of the change whose event they carry). */
    async enqueueForSubscribers({ storeId, event, messageId, body, at }: OutboxMessage): Promise<void> {
      await enqueueForSubscribers(db, [messageId, body, at, at, at, storeId, event, 1]);
    },

    async listWebhookDeliveries(storeId: string, webhookId: string, query: ListWebhookDeliveriesQuery & PageRequest) {
      let matching = db
        .selectFrom('webhook_deliveries')
        .where('store_id', '=', storeId)
        .where('webhook_id', '=', webhookId);
      if (query.status) matching = matching.where('status', '=', query.status);
      const counted = await matching.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
      const { offset, ...pagination } = pageOf(query, Number(counted?.n ?? 0));
      const rows = await matching
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(pagination.limit)
        .offset(offset)
        .execute();
      return { deliveries: await deliveriesOf(db, rows), pagination };
    },

    /** One more attempt, due `at`, with the same message: the delivery is PENDING again. */
    async redeliverWebhookDelivery(storeId: string, webhookId: string, id: string, at: string) {
      const row = await db
        .updateTable('webhook_deliveries')
        .set((eb) => ({
          status: 'PENDING',
          next_attempt_at: at,
          max_attempts: eb('attempts', '+', 1),
          updated_at: at,
        }))
        .where('store_id', FILTER_ONLY_EQUALS, storeId)
        .where('webhook_id', FILTER_ONLY_EQUALS, webhookId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst();
      return row && (await deliveriesOf(db, [row]))[0];
    },
  };
}

/**
 * Settles the delivery after an attempt: DELIVERED on a 2XX, FAILED once the attempts are used up, otherwise
 * still PENDING, due at `outcome.retryAt`.
 */
async function settle(trx: Kysely<Database>, claim: ClaimedDelivery, outcome: AttemptOutcome): Promise<void> {
  const exhausted = claim.attempt >= Number(claim.delivery.max_attempts);
  if (!outcome.delivered && !exhausted) {
    await trx
      .updateTable('webhook_deliveries')
      .set({ next_attempt_at: outcome.retryAt, updated_at: outcome.attemptedAt })
      .where('id', '=', claim.delivery.id)
      .where('status', '=', 'PENDING')
      .execute();
    return;
  }
  await trx
    .updateTable('webhook_deliveries')
    .set({
      status: outcome.delivered ? 'DELIVERED' : 'FAILED',
      next_attempt_at: null,
      updated_at: new Date().toISOString(),
    })
    .where('id', '=', claim.delivery.id)
    // A redelivery asked for while this attempt was in flight keeps the delivery pending.
    .where('max_attempts', '=', Number(claim.delivery.max_attempts))
    .execute();
}

/** Pending deliveries of active webhooks due at `at`, the longest due first. */
function dueDeliveries(db: Kysely<Database>, at: string) {
  const activeWebhooks = db.selectFrom('webhooks').select('id').where('active', '=', 1);
  return db
    .selectFrom('webhook_deliveries')
    .where('status', '=', 'PENDING')
    .where('next_attempt_at', '<=', at)
    .where('webhook_id', 'in', activeWebhooks)
    .orderBy('next_attempt_at');
}

/** The queue the worker claims due deliveries from and records their attempts in. */
function deliveryQueue(db: Kysely<Database>, engine: Engine) {
  return {
    /**
     * Claims up to `limit` pending deliveries of active webhooks due at `at`: each gets its attempt number and
     * `next_attempt_at` moved to `leaseUntil(attempt, webhook)`, the time it is tried again should this attempt
     * never be recorded (a crash). On PostgreSQL the rows are locked with SKIP LOCKED, so instances never claim the
     * same attempt; SQLite has one writer.
     */
    claimDueDeliveries: (
      at: string,
      limit: number,
      leaseUntil: (attempt: number, webhook: WebhookRecord) => string,
    ): Promise<ClaimedDelivery[]> =>
      claimIfDue(dueDeliveries(db, at), () =>
        inTransaction(db, async (trx) => {
          let due = dueDeliveries(trx, at).selectAll().limit(limit);
          if (engine === 'postgres') due = due.forUpdate().skipLocked();
          const rows = await due.execute();
          if (rows.length === 0) return [];
          const webhooks = await trx
            .selectFrom('webhooks')
            .selectAll()
            .where('id', 'in', [...new Set(rows.map((row) => row.webhook_id))])
            .execute();
          const { decode } = storeTable(trx, 'webhooks', webhookColumns);
          const byId = new Map(webhooks.map((row) => [row.id, decode(row)]));
          const claimed: ClaimedDelivery[] = [];
          for (const delivery of rows) {
            const webhook = byId.get(delivery.webhook_id);
            if (!webhook) continue;
            const attempt = Number(delivery.attempts) + 1;
            await trx
              .updateTable('webhook_deliveries')
              .set({ attempts: attempt, next_attempt_at: leaseUntil(attempt, webhook), updated_at: at })
              .where('id', '=', delivery.id)
              .execute();
            claimed.push({ delivery: { ...delivery, attempts: attempt }, attempt, webhook });
          }
          return claimed;
        }),
      ),

    /** Records how a claimed attempt ended and settles the delivery, together. */
    recordAttempt: (claim: ClaimedDelivery, outcome: AttemptOutcome) =>
      inTransaction(db, async (trx) => {
        await trx
          .insertInto('webhook_delivery_attempts')
          .values({
            delivery_id: claim.delivery.id,
            attempt: claim.attempt,
            attempted_at: outcome.attemptedAt,
            status_code: outcome.statusCode,
            duration_ms: outcome.durationMs,
            error: outcome.error,
          })
          .execute();
        await settle(trx, claim, outcome);
      }),
  };
}

/** The deliveries of the webhook outbox, and the worker's claims on them. */
export function webhookDeliveriesRepository(db: Kysely<Database>, engine: Engine) {
  return { ...deliveryLog(db), ...deliveryQueue(db, engine) };
}
