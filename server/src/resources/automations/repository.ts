import type { Kysely } from 'kysely';
import type { components, operations } from '../../../../generated/openapi.ts';
import { flag, json } from '../../db/column-codecs.ts';
import { type StoredOf, storeTable } from '../../db/store-table.ts';
import type { Database } from '../index.ts';

type Schemas = components['schemas'];
export type Automation = Schemas['Automation'];
export type Step = Schemas['Step'];
type ListAutomationsQuery = NonNullable<operations['listAutomations']['parameters']['query']>;

const automationColumns = { active: flag, steps: json<Step[]>() };

/** An automation as stored: the read shape plus when it last changed. */
export type AutomationRecord = StoredOf<'automations', typeof automationColumns, 'trigger_event'>;

export function automationOf({ updatedAt: _updatedAt, ...automation }: AutomationRecord): Automation {
  return automation;
}

export function automationsRepository(db: Kysely<Database>) {
  const automations = storeTable(db, 'automations', automationColumns, { snakeCaseFields: ['trigger_event'] });
  return {
    ...automations.operations('createAutomation', 'getAutomationById', 'updateAutomation', 'deleteAutomation'),
    listAutomations: automations.list('automations', (q: ListAutomationsQuery) => ({
      active: q.active,
      trigger_event: q.trigger_event,
    })),

    /** The store's active automations started by `triggerEvent`, oldest first. */
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
      return automations.decodeAll(rows);
    },
  };
}
