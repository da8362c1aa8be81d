import { operationOf } from '../../contract.ts';
import { now } from '../../domain/clock.ts';
import { newId } from '../../domain/new-id.ts';
import { type NetworkPolicy, webhookUrlProblem } from '../../domain/ssrf-guard.ts';
import { ApiError, caseMessage, found, notFound } from '../../errors.ts';
import { ruleError, ruleViolation } from '../../rules.ts';
import { plainHandlers } from '../crud-handlers.ts';
import { type Handlers, ok } from '../operation.ts';
import { type WebhookRecord, webhookOf } from './repository.ts';

/** The contract's per-store cap on webhooks (createWebhook's `x-per-store-limit`, 409 RESOURCE_LIMIT_REACHED). */
export const WEBHOOKS_PER_STORE = operationOf('createWebhook').perStoreLimit ?? Number.POSITIVE_INFINITY;

/** 400 VALIDATION_ERROR naming `url` when the SSRF guard refuses it (see domain/ssrf-guard.ts). */
function requireSafeUrl(url: string | undefined, network: NetworkPolicy): void {
  const problem = url === undefined ? undefined : webhookUrlProblem(url, network);
  if (problem) throw ruleError(ruleViolation('webhook-url-public', 'url', problem));
}

export const webhookHandlers = {
  ...plainHandlers('webhooks', 'webhook', { deleteWebhook: 'delete' }),

  async listWebhooks({ storeId, query }, { repositories }) {
    const filters = { active: query.active, events: query.events };
    const { webhooks, pagination } = await repositories.webhooks.listWebhooks(storeId, filters, query);
    return { status: 200, body: ok({ webhooks: webhooks.map(webhookOf), pagination }) };
  },

  async createWebhook({ storeId, body }, { repositories, network }) {
    requireSafeUrl(body.url, network);
    const at = now();
    const webhook: WebhookRecord = {
      id: newId(),
      storeId,
      name: body.name,
      description: body.description ?? null,
      url: body.url,
      events: body.events,
      active: body.active,
      retryAttempts: body.retryAttempts,
      timeout: body.timeout,
      secret: body.secret ?? null,
      headers: body.headers ?? null,
      createdAt: at,
      updatedAt: at,
    };
    if (!(await repositories.webhooks.createWebhook(webhook, WEBHOOKS_PER_STORE))) {
      throw new ApiError('RESOURCE_LIMIT_REACHED', {
        message: caseMessage('RESOURCE_LIMIT_REACHED', { limit: WEBHOOKS_PER_STORE }),
      });
    }
    return { status: 201, body: ok({ webhook: webhookOf(webhook) }) };
  },

  async getWebhookById({ storeId, path }, { repositories }) {
    const webhook = found(await repositories.webhooks.getWebhookById(storeId, path.webhookId));
    return { status: 200, body: ok({ webhook: webhookOf(webhook) }) };
  },

  async updateWebhook({ storeId, path, body }, { repositories, network }) {
    requireSafeUrl(body.url, network);
    const current = found(await repositories.webhooks.getWebhookById(storeId, path.webhookId));
    const updated: WebhookRecord = { ...current, ...body, updatedAt: now() };
    await repositories.webhooks.updateWebhook(updated);
    return { status: 200, body: ok({ webhook: webhookOf(updated) }) };
  },

  async listWebhookDeliveries({ storeId, path, query }, { repositories }) {
    if (!(await repositories.webhooks.getWebhookById(storeId, path.webhookId))) throw notFound();
    const page = await repositories.webhookDeliveries.listWebhookDeliveries(storeId, path.webhookId, query);
    return { status: 200, body: ok(page) };
  },

  async redeliverWebhookDelivery({ storeId, path }, { repositories }) {
    const delivery = await repositories.webhookDeliveries.redeliverWebhookDelivery(
      storeId,
      path.webhookId,
      path.deliveryId,
      now(),
    );
    if (!delivery) throw notFound();
    return { status: 202, body: ok({ delivery }) };
  },
} satisfies Partial<Handlers>;
