import type { components } from '../../generated/openapi.ts';
import { AnsweredLater } from './db/pg-answered-later.ts';
import { DuplicateRecord } from './domain/duplicate-record.ts';

export type ErrorCode = components['schemas']['ErrorCode'];
export type ErrorDetail = components['schemas']['ErrorDetail'];
export type ErrorBody = components['schemas']['ErrorResponse'];

/**
 * The Portuguese message each code carries unless a more specific one is given; server/test/error-messages.test.ts
 * fails when one differs from the contract's example of that code.
 */
const MESSAGES: Record<ErrorCode, string> = {
  VALIDATION_ERROR: 'Os dados enviados são inválidos.',
  AUTH_API_KEY_REQUIRED: 'Chave de API ausente, inválida, expirada ou revogada.',
  AUTH_SCOPE_DENIED: 'A chave de API não tem o escopo necessário para esta operação.',
  AUTH_STORE_ACCESS_DENIED: 'A chave de API não tem acesso a esta loja.',
  RESOURCE_NOT_FOUND: 'Recurso não encontrado.',
  DUPLICATE_ENTRY: 'Já existe um registro com este valor na loja.',
  RATE_LIMITED: 'Muitas requisições.',
  ROUTE_NOT_FOUND: 'Rota não encontrada.',
  METHOD_NOT_ALLOWED: 'Método não permitido para esta rota.',
  PAYLOAD_TOO_LARGE: 'O corpo da requisição é grande demais.',
  UNSUPPORTED_MEDIA_TYPE: 'O corpo da requisição deve ser JSON (Content-Type: application/json).',
  IDEMPOTENCY_KEY_IN_USE: 'Uma requisição com esta Idempotency-Key ainda está em processamento.',
  IDEMPOTENCY_KEY_MISMATCH: 'Esta Idempotency-Key já foi usada com outro corpo de requisição.',
  REFERENCE_NOT_FOUND: 'Um ou mais recursos referenciados não existem nesta loja.',
  INVALID_STATUS_TRANSITION: 'Esta mudança de status não é permitida.',
  AUTH_ADMIN_TOKEN_REQUIRED: 'Token de administração ausente ou inválido.',
  INTERNAL_ERROR: 'Erro interno do servidor.',
  RESOURCE_LIMIT_REACHED: 'A loja atingiu o limite deste recurso.',
};

/** Every failure a handler or middleware raises; the error handler turns it into the documented envelope. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: ErrorDetail[] | undefined;

  constructor(status: number, code: ErrorCode, message?: string, details?: ErrorDetail[]) {
    super(message ?? MESSAGES[code]);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

export const detail = (location: ErrorDetail['location'], path: string, reason: string): ErrorDetail => ({
  location,
  path,
  reason,
});

export const validationError = (details: ErrorDetail[], message?: string) =>
  new ApiError(400, 'VALIDATION_ERROR', message, details);
export const notFound = () => new ApiError(404, 'RESOURCE_NOT_FOUND');

/** The record read, or 404 RESOURCE_NOT_FOUND when there is none (unknown, or another store's). */
export function found<Record>(record: Record | undefined | null): Record {
  if (record === undefined || record === null) throw notFound();
  return record;
}
export const duplicateEntry = (path: string, reason: string) =>
  new ApiError(409, 'DUPLICATE_ENTRY', undefined, [detail('body', path, reason)]);
export const referenceNotFound = (details: ErrorDetail[]) =>
  new ApiError(422, 'REFERENCE_NOT_FOUND', undefined, details);

export function errorBody(status: number, code: ErrorCode, message: string, details?: ErrorDetail[]): ErrorBody {
  return {
    success: false,
    error: { message, code, ...(details && details.length > 0 ? { details } : {}) },
    meta: { timestamp: new Date().toISOString(), status },
  };
}

/**
 * Runs a repository write and turns a `DuplicateRecord` into 409 DUPLICATE_ENTRY naming the clashing field, whether
 * the write fails now or, sent without waiting (`AnsweredLater`), at the transaction's next statement.
 */
export async function duplicateAs<T>(write: Promise<T>, path: string, reason: string): Promise<T> {
  const asEntry = (error: unknown) =>
    error instanceof DuplicateRecord ? Object.assign(duplicateEntry(path, reason), { cause: error }) : error;
  try {
    const written = await write;
    if (written instanceof AnsweredLater) written.failsAs(asEntry);
    return written;
  } catch (error) {
    throw asEntry(error);
  }
}
