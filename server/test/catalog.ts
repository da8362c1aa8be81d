import { expect } from 'vitest';
import type { components } from '../../generated/openapi.ts';
import { UUID as ANY_CASE_UUID } from '../../lib/uuid.ts';
import { type Api, type ErrorBody, withoutDefaults } from './fixture.ts';

type ProductCreate = components['schemas']['ProductCreate'];

/** A well-formed id no record has. */
export const UNKNOWN = '00000000-0000-4000-8000-000000000000';
/** A lowercase UUID, as the server writes every id: the contract's form (`lib/uuid.ts`) without its letter case. */
export const UUID = new RegExp(ANY_CASE_UUID.source);
/** The id of a record the server created: a lowercase UUID of version 7 (`server/src/domain/new-id.ts`). */
export const RECORD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** A timestamp as the server writes it: ISO 8601 UTC with milliseconds. */
export const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A DIGITAL product of the client's store (price 10 unless given); fails the test when not created. */
export async function newProduct(api: Api, name: string, fields: Partial<ProductCreate> = {}) {
  const created = await api.POST('/api/v1/products', {
    body: withoutDefaults<ProductCreate>({ name, type: 'DIGITAL', price: 10, ...fields }),
  });
  const product = created.data?.data.product;
  if (!product) throw new Error(`createProduct answered ${created.response.status}`);
  return product;
}

/** The shirt ('Meia Esportiva') and the ebook ('Ebook Receitas') the offer tests build on, each with `fields`. */
export async function twoProducts(
  api: Api,
  fields: { shirt?: Partial<ProductCreate>; ebook?: Partial<ProductCreate> } = {},
) {
  return {
    shirt: await newProduct(api, 'Meia Esportiva', fields.shirt),
    ebook: await newProduct(api, 'Ebook Receitas', fields.ebook),
  };
}

/** The shirt of the client's store and a product of another store (`otherStore`). */
export async function shirtAndForeign(api: Api, otherStore: Api) {
  return {
    shirt: await newProduct(api, 'Meia Esportiva'),
    foreign: await newProduct(otherStore, 'Produto Alheio'),
  };
}

/** A category of the client's store; fails the test when not created. */
export async function newCategory(api: Api, name: string) {
  const created = await api.POST('/api/v1/categories', { body: { name } });
  const category = created.data?.data.category;
  if (!category) throw new Error(`createCategory answered ${created.response.status}`);
  return category;
}

/** An error body's details (none for the 429 body, whose `error` is a code). */
export const detailsOf = (body: { error: ErrorBody['error'] | string } | undefined) =>
  typeof body?.error === 'object' ? (body.error.details ?? []) : [];

/** The paths an error body's details name, in order. */
export const detailPaths = (body: { error: ErrorBody['error'] | string } | undefined): string[] =>
  detailsOf(body).map((detail) => detail.path);

type TemplateCreate = components['schemas']['TemplateCreate'];
type ActionStep = components['schemas']['ActionStep'];
type DelayStep = components['schemas']['DelayStep'];
type AutomationCreate = components['schemas']['AutomationCreate'];

/** An e-mail template whose body names the order. */
export const emailTemplate = {
  channel: 'email',
  name: 'Lembrete de PIX',
  subject: 'Seu PIX está esperando',
  remetente_nome: 'Loja Exemplo',
  remetente_email: 'contato@lojaexemplo.com.br',
  body: 'Olá, use o PIX do pedido {{order.id}}.',
} satisfies TemplateCreate;

/** A template of the client's store; fails the test when not created. */
export async function newTemplate(api: Api, body: TemplateCreate): Promise<string> {
  const created = await api.POST('/api/v1/automation/templates', { body });
  const template = created.data?.data.template;
  if (!template) throw new Error(`createTemplate answered ${created.response.status}`);
  return template.id;
}

/** An action step. */
export const action = (name: ActionStep['name'], data: ActionStep['data'], extra: Partial<ActionStep> = {}) =>
  ({ type: 'action', name, data, ...extra }) satisfies ActionStep;

/** The PIX reminder: a 30-minute delay, then an e-mail of the given template. */
export const flow = (emailId: string) => {
  const wait: DelayStep = { id: 'wait-30', type: 'delay', minutes: 30, nextId: 'email-lembrete' };
  const send: ActionStep = { id: 'email-lembrete', type: 'action', name: 'send_email', data: { template_id: emailId } };
  const steps: [DelayStep, ActionStep] = [wait, send];
  return { name: 'Lembrete de PIX', trigger_event: 'pix.generated', steps } satisfies AutomationCreate;
};

/** The whole documented error envelope (status, code, its Portuguese message from `messages`, details when given, meta). */
export const envelopeOf =
  <Code extends string>(messages: Record<Code, string>) =>
  (status: number, code: Code, details?: unknown[]) => ({
    success: false,
    error: { message: messages[code], code, ...(details ? { details } : {}) },
    meta: { timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/), status },
  });

/** The whole 422 REFERENCE_NOT_FOUND body whose details name each body field (key) with its reason (value). */
export const referenceNotFound = (reasons: Record<string, string>) => ({
  success: false,
  error: {
    code: 'REFERENCE_NOT_FOUND',
    message: expect.any(String),
    details: Object.entries(reasons).map(([path, reason]) => ({ location: 'body', path, reason })),
  },
  meta: { status: 422, timestamp: expect.any(String) },
});

/** An error body whose details name `path` (for `toMatchObject`). */
export const naming = (path: string) => ({
  error: { details: expect.arrayContaining([expect.objectContaining({ path })]) },
});
