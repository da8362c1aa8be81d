import { type components, errorCodeValues } from '../../generated/openapi.ts';
import { isTexts, maxErrorDetails } from '../../lib/contract.ts';
import { type WordedValues, wordedEntry } from '../../lib/worded.ts';
import { contractValue, enumTable, isText, servedContract } from './contract.ts';
import { AnsweredLater } from './db/pg-answered-later.ts';
import { DuplicateRecord } from './domain/duplicate-record.ts';

export type ErrorCode = components['schemas']['ErrorCode'];
export type ErrorDetail = components['schemas']['ErrorDetail'];
export type ErrorBody = components['schemas']['ErrorResponse'];

/** The most details an error names, the first found (the contract's `info` › `x-max-error-details`). */
const MAX_DETAILS = maxErrorDetails(servedContract);

/**
 * The Portuguese message each code carries unless a more specific one is given: the contract's `ErrorCode` ›
 * `x-messages` (server/test/error-messages.test.ts holds every error example of the contract to it).
 */
const MESSAGES = enumTable('ErrorCode', 'x-messages', errorCodeValues, isText);

const isStatuses = (entry: unknown): entry is number[] =>
  Array.isArray(entry) && entry.length > 0 && entry.every((status) => Number.isInteger(status) && status >= 400);
/** The HTTP statuses each code is answered with, the usual one first: the contract's `ErrorCode` › `x-statuses`. */
const STATUSES = enumTable('ErrorCode', 'x-statuses', errorCodeValues, isStatuses);

const isCaseMessages = (table: unknown): table is Readonly<Partial<Record<ErrorCode, string>>> =>
  isTexts(table) &&
  Object.keys(table).every((key) => (errorCodeValues as readonly string[]).includes(key.split('.')[0] ?? ''));
/** The messages of the cases that have their own: the contract's `ErrorCode` › `x-case-messages`. */
const CASE_MESSAGES = contractValue('#/components/schemas/ErrorCode/x-case-messages', isCaseMessages, 'case messages');

/** The message of a case of `code` that has its own, its `{name}` placeholders filled from `values`. */
export const caseMessage = (code: ErrorCode, values: WordedValues): string =>
  wordedEntry(CASE_MESSAGES, code, values, `case message of ${code}`);

export interface ApiErrorOptions {
  /** One of the code's statuses in the contract; its usual one when left out. */
  status?: number;
  /** The case's own message; the code's (`x-messages`) when left out. */
  message?: string;
  details?: ErrorDetail[];
}

/** Every failure a handler or middleware raises; the error handler turns it into the documented envelope. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly details: ErrorDetail[] | undefined;

  constructor(code: ErrorCode, { status, message, details }: ApiErrorOptions = {}) {
    super(message ?? MESSAGES[code]);
    const statuses = STATUSES[code];
    this.status = status ?? statuses[0] ?? 500;
    // A pair the contract does not state is a defect here, not an answer to send.
    if (!statuses.includes(this.status))
      throw new Error(`the contract answers ${code} with ${statuses}, not ${status}`);
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
  new ApiError('VALIDATION_ERROR', { details, ...(message === undefined ? {} : { message }) });
export const notFound = () => new ApiError('RESOURCE_NOT_FOUND');

/** The record read, or 404 RESOURCE_NOT_FOUND when there is none (unknown, or another store's). */
export function found<Record>(record: Record | undefined | null): Record {
  if (record === undefined || record === null) throw notFound();
  return record;
}
export const duplicateEntry = (path: string, reason: string) =>
  new ApiError('DUPLICATE_ENTRY', { details: [detail('body', path, reason)] });
export const referenceNotFound = (details: ErrorDetail[]) => new ApiError('REFERENCE_NOT_FOUND', { details });

export function errorBody(status: number, code: ErrorCode, message: string, details?: ErrorDetail[]): ErrorBody {
  return {
    success: false,
    error: { message, code, ...(details && details.length > 0 ? { details: details.slice(0, MAX_DETAILS) } : {}) },
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
