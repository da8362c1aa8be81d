import { randomUUID } from 'node:crypto';
import { notFound } from '../errors.ts';
import { now } from '../repositories/columns.ts';
import { paginationOf } from '../repositories/pagination.ts';
import { type WebhookRecord, webhookOf } from '../repositories/webhooks-repository.ts';
import { type Handlers, ok } from './types.ts';

export const webhookHandlers: Pick<
  Handlers,
  'listWebhooks' | 'createWebhook' | 'getWebhookById' | 'updateWebhook' | 'deleteWebhook'
> = {
  async listWebhooks({ storeId, query }, { repositories }) {
    const filters = { active: query.active, events: query.events };
    const { webhooks, page } = await repositories.webhooks.list(storeId, filters, query);
    return { status: 200, body: ok({ webhooks: webhooks.map(webhookOf), pagination: paginationOf(page) }) };
  },

  async createWebhook({ storeId, body }, { repositories }) {
    const at = now();
    const webhook: WebhookRecord = {
      id: randomUUID(),
      storeId,
      name: body.name,
      description: body.description ?? null,
      url: body.url,
      events: body.events,
      active: body.active ?? true,
      retryAttempts: body.retryAttempts ?? 3,
      timeout: body.timeout ?? 5000,
      secret: body.secret ?? null,
      headers: body.headers ?? null,
      createdAt: at,
      updatedAt: at,
    };
    await repositories.webhooks.insert(webhook);
    return { status: 201, body: ok({ webhook: webhookOf(webhook) }) };
  },

  async getWebhookById({ storeId, path }, { repositories }) {
    const webhook = await repositories.webhooks.find(storeId, path.webhookId);
    if (!webhook) throw notFound();
    return { status: 200, body: ok({ webhook: webhookOf(webhook) }) };
  },

  async updateWebhook({ storeId, path, body }, { repositories }) {
    const current = await repositories.webhooks.find(storeId, path.webhookId);
    if (!current) throw notFound();
    const updated: WebhookRecord = { ...current, ...body, updatedAt: now() };
    await repositories.webhooks.replace(updated);
    return { status: 200, body: ok({ webhook: webhookOf(updated) }) };
  },

  async deleteWebhook({ storeId, path }, { repositories }) {
    if (!(await repositories.webhooks.delete(storeId, path.webhookId))) throw notFound();
    return { status: 204, body: undefined };
  },
};
