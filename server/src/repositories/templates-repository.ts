import type { Kysely, Selectable } from 'kysely';
import type { components } from '../../../generated/openapi.ts';
import type { Database, MessageTemplatesTable } from '../db/schema.ts';
import { newestFirstPage, type PageRequest } from './pagination.ts';

type Schemas = components['schemas'];
export type Template = Schemas['Template'];
export type TemplateChannel = Schemas['TemplateChannel'];

function toRow(template: Template): Selectable<MessageTemplatesTable> {
  return {
    id: template.id,
    store_id: template.storeId,
    channel: template.channel,
    name: template.name,
    subject: template.subject,
    remetente_nome: template.remetente_nome,
    remetente_email: template.remetente_email,
    body: template.body,
    html: template.html,
    message: template.message,
    created_at: template.createdAt,
    updated_at: template.updatedAt,
  };
}

function toTemplate(row: Selectable<MessageTemplatesTable>): Template {
  return {
    id: row.id,
    storeId: row.store_id,
    channel: row.channel as TemplateChannel,
    name: row.name,
    subject: row.subject,
    remetente_nome: row.remetente_nome,
    remetente_email: row.remetente_email,
    body: row.body,
    html: row.html,
    message: row.message,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function templatesRepository(db: Kysely<Database>) {
  return {
    async insert(template: Template): Promise<void> {
      await db.insertInto('message_templates').values(toRow(template)).execute();
    },

    async find(storeId: string, id: string): Promise<Template | undefined> {
      const row = await db
        .selectFrom('message_templates')
        .selectAll()
        .where('store_id', '=', storeId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row && toTemplate(row);
    },

    /** The store's templates among `ids` (the automation checks look them up in one query). */
    async findMany(storeId: string, ids: readonly string[]): Promise<Map<string, Template>> {
      if (ids.length === 0) return new Map();
      const rows = await db
        .selectFrom('message_templates')
        .selectAll()
        .where('store_id', '=', storeId)
        .where('id', 'in', [...new Set(ids)])
        .execute();
      return new Map(rows.map((row) => [row.id, toTemplate(row)]));
    },

    async replace(template: Template): Promise<void> {
      const { id, store_id, created_at: _created, ...changes } = toRow(template);
      await db
        .updateTable('message_templates')
        .set(changes)
        .where('store_id', '=', store_id)
        .where('id', '=', id)
        .execute();
    },

    async delete(storeId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom('message_templates')
        .where('store_id', '=', storeId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },

    async list(storeId: string, channel: TemplateChannel | undefined, request: PageRequest) {
      let query = db.selectFrom('message_templates').where('store_id', '=', storeId);
      if (channel) query = query.where('channel', '=', channel);
      const { rows, pagination: page } = await newestFirstPage(query, request);
      return { templates: rows.map(toTemplate), page };
    },
  };
}

export type TemplatesRepository = ReturnType<typeof templatesRepository>;
