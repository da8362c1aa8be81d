import type { components } from '../../../../generated/openapi.ts';

/** `message_templates`, as server/migrations create it (the wire's snake_case sender fields kept as they are). */
export interface MessageTemplatesTable {
  id: string;
  store_id: string;
  channel: components['schemas']['TemplateChannel'];
  name: string;
  subject: string | null;
  remetente_nome: string | null;
  remetente_email: string | null;
  body: string | null;
  html: string | null;
  message: string | null;
  created_at: string;
  updated_at: string;
}

export interface TemplateTables {
  message_templates: MessageTemplatesTable;
}
