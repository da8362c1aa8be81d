import type { Kysely, Selectable, Transaction } from 'kysely';
import type { components } from '../../../generated/openapi.ts';
import { inTransaction } from '../db/in-transaction.ts';
import type { Database, WebhooksTable } from '../db/schema.ts';
import { flag, flagColumn, json, jsonColumn, nullableJson, nullableJsonColumn } from './columns.ts';
import { type PageRequest, pageOf, readWindow } from './pagination.ts';

type Schemas = components['schemas'];
export type Webhook = Schemas['Webhook'];
export type WebhookEventName = Schemas['WebhookEventName'];

/** A webhook as stored: the read shape plus the signing secret (never part of any response). */
export interface WebhookRecord extends Omit<Webhook, 'hasSecret'> {
  secret: string | null;
}

export interface WebhookFilters {
  active?: boolean | undefined;
  /** A webhook matches when it subscribes to any of these. */
  events?: readonly WebhookEventName[] | undefined;
}

function toRow(webhook: WebhookRecord): Selectable<WebhooksTable> {
  return {
    id: webhook.id,
    store_id: webhook.storeId,
    name: webhook.name,
    description: webhook.description,
    url: webhook.url,
    events: jsonColumn(webhook.events),
    active: flagColumn(webhook.active),
    retry_attempts: webhook.retryAttempts,
    timeout: webhook.timeout,
    secret: webhook.secret,
    headers: nullableJsonColumn(webhook.headers),
    created_at: webhook.createdAt,
    updated_at: webhook.updatedAt,
  };
}

function toRecord(row: Selectable<WebhooksTable>): WebhookRecord {
  return {
    id: row.id,
    storeId: row.store_id,
    name: row.name,
    description: row.description,
    url: row.url,
    events: json(row.events),
    active: flag(row.active),
    retryAttempts: row.retry_attempts,
    timeout: row.timeout,
    secret: row.secret,
    headers: nullableJson(row.headers),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The read shape: the secret is replaced by `hasSecret`. */
export function webhookOf({ secret, ...webhook }: WebhookRecord): Webhook {
  return { ...webhook, hasSecret: secret !== null };
}

/** Moves the store's webhook counts by `total` and `active` (inside the transaction of the change). */
async function count(trx: Transaction<Database>, storeId: string, total: number, active: number): Promise<void> {
  await trx
    .insertInto('webhook_counts')
    .values({ store_id: storeId, total, active })
    .onConflict((conflict) =>
      conflict.column('store_id').doUpdateSet((eb) => ({
        total: eb('webhook_counts.total', '+', total),
        active: eb('webhook_counts.active', '+', active),
      })),
    )
    .execute();
}

export function webhooksRepository(db: Kysely<Database>) {
  const subscriptions = (webhook: WebhookRecord) =>
    webhook.events.map((event) => ({
      webhook_id: webhook.id,
      store_id: webhook.storeId,
      event,
      active: flagColumn(webhook.active),
      created_at: webhook.createdAt,
    }));

  return {
    async insert(webhook: WebhookRecord): Promise<void> {
      await inTransaction(db, async (trx) => {
        await trx.insertInto('webhooks').values(toRow(webhook)).execute();
        await trx.insertInto('webhook_events').values(subscriptions(webhook)).execute();
        await count(trx, webhook.storeId, 1, webhook.active ? 1 : 0);
      });
    },

    async find(storeId: string, id: string): Promise<WebhookRecord | undefined> {
      const row = await db
        .selectFrom('webhooks')
        .selectAll()
        .where('store_id', '=', storeId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row && toRecord(row);
    },

    async replace(webhook: WebhookRecord): Promise<void> {
      const { id, store_id, created_at: _created, ...changes } = toRow(webhook);
      await inTransaction(db, async (trx) => {
        const before = await trx
          .selectFrom('webhooks')
          .select('active')
          .where('store_id', '=', store_id)
          .where('id', '=', id)
          .executeTakeFirst();
        if (before && flag(before.active) !== webhook.active) await count(trx, store_id, 0, webhook.active ? 1 : -1);
        await trx.updateTable('webhooks').set(changes).where('store_id', '=', store_id).where('id', '=', id).execute();
        await trx.deleteFrom('webhook_events').where('webhook_id', '=', id).execute();
        await trx.insertInto('webhook_events').values(subscriptions(webhook)).execute();
      });
    },

    async delete(storeId: string, id: string): Promise<boolean> {
      return inTransaction(db, async (trx) => {
        const deleted = await trx
          .deleteFrom('webhooks')
          .where('store_id', '=', storeId)
          .where('id', '=', id)
          .returning('active')
          .executeTakeFirst();
        if (deleted) await count(trx, storeId, -1, flag(deleted.active) ? -1 : 0);
        return deleted !== undefined;
      });
    },

    /**
     * Newest first. The page's ids are picked from an index alone (without `events`: webhooks by store, active
     * and created order; with `events`: the subscriptions by store and created order), and only those ids are
     * joined to their rows, so the last page of a store with 100,000 webhooks costs about what the first does.
     * The id subquery is what filters by store; the join reads the page's rows by primary key.
     */
    async list(storeId: string, filters: WebhookFilters, request: PageRequest) {
      const events = filters.events ?? [];
      if (events.length === 0) {
        let query = db.selectFrom('webhooks').where('store_id', '=', storeId);
        if (filters.active !== undefined) query = query.where('active', '=', flagColumn(filters.active));
        const counts = await db
          .selectFrom('webhook_counts')
          .select(['total', 'active'])
          .where('store_id', '=', storeId)
          .executeTakeFirst();
        const total = Number(counts?.total ?? 0);
        const active = Number(counts?.active ?? 0);
        const page = pageOf(request, filters.active === undefined ? total : filters.active ? active : total - active);
        if (page.offset >= page.total) return { webhooks: [], page };
        const window = readWindow(page);
        const direction = window.newestFirst ? 'desc' : 'asc';
        const ids = query
          .select(['webhooks.id as webhook_id', 'webhooks.created_at'])
          .orderBy('webhooks.created_at', direction)
          .orderBy('webhooks.id', direction)
          .limit(window.limit)
          .offset(window.offset)
          .as('page_ids');
        const rows = await db
          .selectFrom(ids)
          .innerJoin('webhooks', 'webhooks.id', 'page_ids.webhook_id')
          .selectAll('webhooks')
          .orderBy('page_ids.created_at', direction)
          .orderBy('page_ids.webhook_id', direction)
          .execute();
        if (!window.newestFirst) rows.reverse();
        return { webhooks: rows.map(toRecord), page };
      }
      let subscribed = db
        .selectFrom('webhook_events')
        .where('webhook_events.store_id', '=', storeId)
        .where('webhook_events.event', 'in', events);
      if (filters.active !== undefined) {
        subscribed = subscribed.where('webhook_events.active', '=', flagColumn(filters.active));
      }
      // A webhook subscribed to several of the events has one entry per event: group them back into one.
      const matching = subscribed
        .select(['webhook_events.webhook_id', 'webhook_events.created_at'])
        .groupBy(['webhook_events.created_at', 'webhook_events.webhook_id']);
      const counted = await db
        .selectFrom(matching.as('matching'))
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirst();
      const page = pageOf(request, Number(counted?.n ?? 0));
      if (page.offset >= page.total) return { webhooks: [], page };
      const window = readWindow(page);
      const direction = window.newestFirst ? 'desc' : 'asc';
      const ids = matching
        .orderBy('webhook_events.created_at', direction)
        .orderBy('webhook_events.webhook_id', direction)
        .limit(window.limit)
        .offset(window.offset)
        .as('page_ids');
      const rows = await db
        .selectFrom(ids)
        .innerJoin('webhooks', 'webhooks.id', 'page_ids.webhook_id')
        .selectAll('webhooks')
        .orderBy('page_ids.created_at', direction)
        .orderBy('page_ids.webhook_id', direction)
        .execute();
      if (!window.newestFirst) rows.reverse();
      return { webhooks: rows.map(toRecord), page };
    },

    /** The store's active webhooks subscribed to `event` (the delivery look-up). */
    async subscribers(storeId: string, event: string): Promise<WebhookRecord[]> {
      const rows = await db
        .selectFrom('webhooks')
        .innerJoin('webhook_events', 'webhook_events.webhook_id', 'webhooks.id')
        .selectAll('webhooks')
        .where('webhook_events.store_id', '=', storeId)
        .where('webhook_events.event', '=', event)
        .where('webhook_events.active', '=', 1)
        .execute();
      return rows.map(toRecord);
    },
  };
}

export type WebhooksRepository = ReturnType<typeof webhooksRepository>;
