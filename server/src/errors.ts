import { type components, errorCodeValues } from '../../generated/openapi.ts';
import { enumTable, isText } from './contract.ts';
import { AnsweredLater } from './db/pg-answered-later.ts';
import { DuplicateRecord } from './domain/duplicate-record.ts';

export type ErrorCode = components['schemas']['ErrorCode'];
export type ErrorDetail = components['schemas']['ErrorDetail'];
export type ErrorBody = components['schemas']['ErrorResponse'];

/**
 * The Portuguese message each code carries unless a more specific one is given: the contract's `ErrorCode` ›
 * `x-messages` (server/test/error-messages.test.ts holds every error example of the contract to it).
 */
const MESSAGES = enumTable('ErrorCode', 'x-messages', errorCodeValues, isText);

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
