import type { Kysely, Selectable } from 'kysely';
import type { components } from '../../../generated/openapi.ts';
import type { AutomationsTable, Database } from '../db/schema.ts';
import { flag, flagColumn, json, jsonColumn } from './columns.ts';
import { newestFirstPage, type PageRequest } from './pagination.ts';

type Schemas = components['schemas'];
export type Automation = Schemas['Automation'];
export type Step = Schemas['Step'];

export interface AutomationFilters {
  active?: boolean | undefined;
  triggerEvent?: string | undefined;
}

/** An automation as stored: the read shape plus when it last changed. */
export interface AutomationRecord extends Automation {
  updatedAt: string;
}

function toRow(automation: AutomationRecord): Selectable<AutomationsTable> {
  return {
    id: automation.id,
    store_id: automation.storeId,
    name: automation.name,
    trigger_event: automation.trigger_event,
    active: flagColumn(automation.active),
    steps: jsonColumn(automation.steps),
    created_at: automation.createdAt,
    updated_at: automation.updatedAt,
  };
}

function toRecord(row: Selectable<AutomationsTable>): AutomationRecord {
  return {
    id: row.id,
    storeId: row.store_id,
    name: row.name,
    trigger_event: row.trigger_event,
    active: flag(row.active),
    createdAt: row.created_at,
    steps: json<Step[]>(row.steps),
    updatedAt: row.updated_at,
  };
}

export function automationOf({ updatedAt: _updatedAt, ...automation }: AutomationRecord): Automation {
  return automation;
}

export function automationsRepository(db: Kysely<Database>) {
  return {
    async insert(automation: AutomationRecord): Promise<void> {
      await db.insertInto('automations').values(toRow(automation)).execute();
    },

    async find(storeId: string, id: string): Promise<AutomationRecord | undefined> {
      const row = await db
        .selectFrom('automations')
        .selectAll()
        .where('store_id', '=', storeId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row && toRecord(row);
    },

    async replace(automation: AutomationRecord): Promise<void> {
      const { id, store_id, created_at: _created, ...changes } = toRow(automation);
      await db.updateTable('automations').set(changes).where('store_id', '=', store_id).where('id', '=', id).execute();
    },

    async delete(storeId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom('automations')
        .where('store_id', '=', storeId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async list(storeId: string, filters: AutomationFilters, request: PageRequest) {
      let query = db.selectFrom('automations').where('store_id', '=', storeId);
      if (filters.active !== undefined) query = query.where('active', '=', flagColumn(filters.active));
      if (filters.triggerEvent) query = query.where('trigger_event', '=', filters.triggerEvent);
      const { rows, pagination: page } = await newestFirstPage(query, request);
      return { automations: rows.map(toRecord), page };
    },

    /** The store's active automations started by `triggerEvent`. */
    async triggeredBy(storeId: string, triggerEvent: string): Promise<AutomationRecord[]> {
      const rows = await db
        .selectFrom('automations')
        .selectAll()
        .where('store_id', '=', storeId)
        .where('trigger_event', '=', triggerEvent)
        .where('active', '=', 1)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toRecord);
    },
  };
}

export type AutomationsRepository = ReturnType<typeof automationsRepository>;
