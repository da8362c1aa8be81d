import { type AliasedSelectQueryBuilder, type Kysely, sql } from 'kysely';
import type { components, operations } from '../../../../generated/openapi.ts';
import { flag, json, nullableJson } from '../../db/column-codecs.ts';
import type { Engine } from '../../db/database.ts';
import { FILTER_ONLY_EQUALS } from '../../db/filter-only-equals.ts';
import { inTransaction } from '../../db/in-transaction.ts';
import { ANSWERED_LATER_SQL } from '../../db/pg-answered-later.ts';
import { type PageRequest, pageOf, readWindow, type StoredOf, storeTable } from '../../db/store-table.ts';
import type { Database } from '../index.ts';

type Schemas = components['schemas'];
export type Webhook = Schemas['Webhook'];
export type WebhookEventName = Schemas['WebhookEventName'];
type ListWebhooksQuery = NonNullable<operations['listWebhooks']['parameters']['query']>;

export const webhookColumns = {
  events: json<WebhookEventName[]>(),
  active: flag,
  headers: nullableJson<Record<string, string>>(),
};

/** A webhook as stored: the read shape plus the signing secret (never part of any response). */
export type WebhookRecord = StoredOf<'webhooks', typeof webhookColumns>;

/** The read shape: the secret is replaced by `hasSecret`. */
export function webhookOf({ secret, ...webhook }: WebhookRecord): Webhook {
  return { ...webhook, hasSecret: secret !== null };
}

type Window = ReturnType<typeof readWindow>;
/** A page of webhook ids and their creation times, as a subquery. */
type PageIds = AliasedSelectQueryBuilder<{ webhook_id: string; created_at: string }, 'page_ids'>;

/** The list's filters, `events` already split into names. */
export type WebhookFilters = Pick<ListWebhooksQuery, 'active'> & { events?: readonly WebhookEventName[] | undefined };

/**
 * Moves the store's webhook counts by `total` and `active` (inside the transaction of the change; on PostgreSQL
 * sent without waiting, like the writes of webhook_events below: the transaction's next statement answers for it).
 */
const count = (trx: Kysely<Database>, storeId: string, total: number, active: number) =>
  trx
    .insertInto('webhook_counts')
    .values({ store_id: storeId, total, active })
    .onConflict((conflict) =>
      conflict.column('store_id').doUpdateSet((eb) => ({
        total: eb('webhook_counts.total', '+', total),
        active: eb('webhook_counts.active', '+', active),
      })),
    )
    .modifyEnd(ANSWERED_LATER_SQL)
    .execute();

const subscriptions = (webhook: WebhookRecord) =>
  webhook.events.map((event) => ({
    webhook_id: webhook.id,
    store_id: webhook.storeId,
    event,
    active: webhook.active ? 1 : 0,
    created_at: webhook.createdAt,
  }));

/** Writes the webhook's subscriptions (sent without waiting on PostgreSQL, as `count`). */
const insertSubscriptions = (trx: Kysely<Database>, webhook: WebhookRecord) =>
  trx.insertInto('webhook_events').values(subscriptions(webhook)).modifyEnd(ANSWERED_LATER_SQL).execute();

/** The writes, each keeping `webhook_counts` and the `webhook_events` subscriptions in step with the webhook. */
function webhookWrites(db: Kysely<Database>, engine: Engine) {
  return {
    /**
     * Creates the webhook unless the store already holds `limit`; false then. On PostgreSQL a store's creates
     * take turns on a transaction-scoped advisory lock before counting, so simultaneous ones (on any instance)
     * never pass the limit; the embedded store runs one write transaction at a time. The lock and the writes are
     * sent without waiting (pg-answered-later.ts): the count's read answers for the lock, the COMMIT for the rest.
     */
    createWebhook: (webhook: WebhookRecord, limit: number) =>
      inTransaction(db, async (trx) => {
        if (engine === 'postgres') {
          const lock = `webhooks\n${webhook.storeId}`;
          await sql`SELECT pg_advisory_xact_lock(hashtextextended(${lock}, 0))${ANSWERED_LATER_SQL}`.execute(trx);
        }
        if ((await totalOf(trx, webhook.storeId, {}, [])) >= limit) return false;
        await storeTable(trx, 'webhooks', webhookColumns).insertAnsweredLater(webhook);
        await insertSubscriptions(trx, webhook);
        await count(trx, webhook.storeId, 1, webhook.active ? 1 : 0);
        return true;
      }),

    updateWebhook: (webhook: WebhookRecord) =>
      inTransaction(db, async (trx) => {
        const before = await storeTable(trx, 'webhooks', webhookColumns).find(webhook.storeId, webhook.id);
        if (before && before.active !== webhook.active) await count(trx, webhook.storeId, 0, webhook.active ? 1 : -1);
        await storeTable(trx, 'webhooks', webhookColumns).replace(webhook);
        await trx.deleteFrom('webhook_events').where('webhook_id', '=', webhook.id).execute();
        await insertSubscriptions(trx, webhook);
      }),

    deleteWebhook: (storeId: string, id: string) =>
      inTransaction(db, async (trx) => {
        const deleted = await trx
          .deleteFrom('webhooks')
          .where('store_id', FILTER_ONLY_EQUALS, storeId)
          .where('id', '=', id)
          .returning('active')
          .executeTakeFirst();
        if (deleted) await count(trx, storeId, -1, flag.fromColumn(deleted.active) ? -1 : 0);
        return deleted !== undefined;
      }),
  };
}

/** The rows of a page of ids, in the window's order. */
async function rowsOf(db: Kysely<Database>, ids: PageIds, newestFirst: boolean) {
  const direction = newestFirst ? 'desc' : 'asc';
  const rows = await db
    .selectFrom(ids)
    .innerJoin('webhooks', 'webhooks.id', 'page_ids.webhook_id')
    .selectAll('webhooks')
    .orderBy('page_ids.created_at', direction)
    .orderBy('page_ids.webhook_id', direction)
    .execute();
  if (!newestFirst) rows.reverse();
  return rows;
}

/** Without `events`: the page's ids from webhooks by store, active and created order. */
const unfilteredIds = (db: Kysely<Database>, storeId: string, active: boolean | undefined, window: Window): PageIds => {
  const direction = window.newestFirst ? 'desc' : 'asc';
  let query = db.selectFrom('webhooks').where('store_id', '=', storeId);
  if (active !== undefined) query = query.where('active', '=', active ? 1 : 0);
  return query
    .select(['webhooks.id as webhook_id', 'webhooks.created_at'])
    .orderBy('webhooks.created_at', direction)
    .orderBy('webhooks.id', direction)
    .limit(window.limit)
    .offset(window.offset)
    .as('page_ids');
};

// With `events`: a webhook subscribed to several of them has one entry per event, grouped back into one.
const subscribed = (
  db: Kysely<Database>,
  storeId: string,
  events: readonly WebhookEventName[],
  active: boolean | undefined,
) => {
  let query = db
    .selectFrom('webhook_events')
    .where('webhook_events.store_id', '=', storeId)
    .where('webhook_events.event', 'in', events);
  if (active !== undefined) query = query.where('webhook_events.active', '=', active ? 1 : 0);
  return query
    .select(['webhook_events.webhook_id', 'webhook_events.created_at'])
    .groupBy(['webhook_events.created_at', 'webhook_events.webhook_id']);
};

const subscribedIds = (matching: ReturnType<typeof subscribed>, window: Window): PageIds => {
  const direction = window.newestFirst ? 'desc' : 'asc';
  return matching
    .orderBy('webhook_events.created_at', direction)
    .orderBy('webhook_events.webhook_id', direction)
    .limit(window.limit)
    .offset(window.offset)
    .as('page_ids');
};

/** How many webhooks the list's filters match: from `webhook_counts` without `events`, counted with them. */
async function totalOf(
  db: Kysely<Database>,
  storeId: string,
  filters: WebhookFilters,
  events: readonly WebhookEventName[],
) {
  if (events.length === 0) {
    const counts = await db
      .selectFrom('webhook_counts')
      .select(['total', 'active'])
      .where('store_id', '=', storeId)
      .executeTakeFirst();
    const all = Number(counts?.total ?? 0);
    const active = Number(counts?.active ?? 0);
    return filters.active === undefined ? all : filters.active ? active : all - active;
  }
  const counted = await db
    .selectFrom(subscribed(db, storeId, events, filters.active).as('matching'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirst();
  return Number(counted?.n ?? 0);
}

/** The reads: one webhook and the list. */
function webhookReads(db: Kysely<Database>) {
  const webhooks = storeTable(db, 'webhooks', webhookColumns);
  return {
    getWebhookById: webhooks.find,

    /**
     * Newest first. The page's ids are picked from an index alone (without `events`: webhooks by store, active
     * and created order, the total from `webhook_counts`; with `events`: the subscriptions by store and created
     * order), and only those ids are joined to their rows, so the last page of a store with 100,000 webhooks
     * costs about what the first does.
     */
    async listWebhooks(storeId: string, filters: WebhookFilters, request: PageRequest) {
      const events = filters.events ?? [];
      const total = await totalOf(db, storeId, filters, events);
      const { offset, ...pagination } = pageOf(request, total);
      if (offset >= total) return { webhooks: [], pagination };
      const window = readWindow({ offset, limit: pagination.limit, total });
      const ids =
        events.length === 0
          ? unfilteredIds(db, storeId, filters.active, window)
          : subscribedIds(subscribed(db, storeId, events, filters.active), window);
      return { webhooks: webhooks.decodeAll(await rowsOf(db, ids, window.newestFirst)), pagination };
    },
  };
}

export function webhooksRepository(db: Kysely<Database>, engine: Engine) {
  return { ...webhookWrites(db, engine), ...webhookReads(db) };
}
