import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { CONTRACT_PATH } from '../src/contract.ts';
import { ApiError, type ErrorCode } from '../src/errors.ts';

interface ErrorExample {
  value?: { success?: boolean; error?: { code?: ErrorCode; message?: string }; meta?: { status?: number } };
}
const { components } = YAML.parse(readFileSync(CONTRACT_PATH, 'utf8')) as {
  components: {
    examples: Record<string, ErrorExample>;
    schemas: { ErrorResponse: { 'x-unlisted-answers': NonNullable<ErrorExample['value']>[] } };
  };
};
// The named examples of responses, and the answers any operation may give beyond them (`x-unlisted-answers`).
const examples = [
  ...Object.entries(components.examples),
  ...components.schemas.ErrorResponse['x-unlisted-answers'].map(
    (value, index) => [`ErrorResponse.x-unlisted-answers[${index}]`, { value }] as const,
  ),
].flatMap(([name, { value }]) =>
  value?.success === false && value.error?.code && value.error.message
    ? [{ name, code: value.error.code, message: value.error.message, status: value.meta?.status }]
    : [],
);

/** Codes whose example shows a message the handler builds for the case, not the code's default. */
const SPECIFIC = new Set<ErrorCode>(['INVALID_STATUS_TRANSITION', 'RESOURCE_LIMIT_REACHED']);

describe('error messages', () => {
  it('finds the error examples of the contract', () => {
    expect(examples.length).toBeGreaterThanOrEqual(10);
  });

  it.each(examples.filter(({ code }) => !SPECIFIC.has(code)))(
    'gives $code the message of the contract example $name',
    ({ code, message }) => {
      expect(new ApiError(code).message).toBe(message);
    },
  );

  it.each(examples)('answers $code with the status of the contract example $name ($status)', ({ code, status }) => {
    expect(new ApiError(code, { status: status ?? 0 }).status).toBe(status);
  });

  it('refuses a status the contract does not give the code', () => {
    expect(() => new ApiError('RESOURCE_NOT_FOUND', { status: 400 })).toThrow(
      'the contract answers RESOURCE_NOT_FOUND with 404, not 400',
    );
  });
});
