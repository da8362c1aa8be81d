import type { Kysely } from 'kysely';
import type { components, operations } from '../../../../generated/openapi.ts';
import { FILTER_ONLY_EQUALS } from '../../db/filter-only-equals.ts';
import { storeTable } from '../../db/store-table.ts';
import type { Database } from '../index.ts';

export type Template = components['schemas']['Template'];
type ListTemplatesQuery = NonNullable<operations['listTemplates']['parameters']['query']>;

export function templatesRepository(db: Kysely<Database>) {
  const templates = storeTable(db, 'message_templates', {}, { snakeCaseFields: ['remetente_nome', 'remetente_email'] });
  return {
    ...templates.operations('createTemplate', 'getTemplateById', 'updateTemplate', 'deleteTemplate'),
    listTemplates: templates.list('templates', (q: ListTemplatesQuery) => ({ channel: q.channel })),

    /** The store's templates among `ids` (the automation checks look them up in one query). */
    async findMany(storeId: string, ids: readonly string[]): Promise<Map<string, Template>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom('message_templates')
        .selectAll()
        .where('store_id', FILTER_ONLY_EQUALS, storeId)
        .where('id', 'in', [...new Set(ids)])
        .execute();
      return new Map(templates.decodeAll(rows).map((template) => [template.id, template]));
    },
  };
}
