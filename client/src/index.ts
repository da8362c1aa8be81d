export type { components, operations, paths, webhooks } from '../../generated/openapi-wire.ts';
export {
  createStorefrontClient,
  type ItemOf,
  type PagedPath,
  type StorefrontClient,
  type StorefrontClientOptions,
  type Success,
} from './client.ts';
export { type ErrorCode, type ErrorDetail, StorefrontApiError } from './errors.ts';
export type { IdempotentPostPath, StorefrontPaths } from './paths.ts';
export { DEFAULT_RETRY, type RetryOptions } from './retry.ts';
export {
  type IncomingHeaders,
  newWebhookSecret,
  verifyWebhook,
  type WebhookEvent,
  type WebhookEventName,
  WebhookVerificationError,
} from './webhooks.ts';
