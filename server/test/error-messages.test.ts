import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { wordingOf } from '../../lib/worded.ts';
import { CONTRACT_PATH } from '../src/contract.ts';
import { ApiError, type ErrorCode } from '../src/errors.ts';

interface ErrorExample {
  value?: { success?: boolean; error?: { code?: ErrorCode; message?: string }; meta?: { status?: number } };
}
const { components } = YAML.parse(readFileSync(CONTRACT_PATH, 'utf8')) as {
  components: {
    examples: Record<string, ErrorExample>;
    schemas: {
      ErrorResponse: { 'x-unlisted-answers': NonNullable<ErrorExample['value']>[] };
      ErrorCode: { 'x-case-messages': Record<string, string> };
    };
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

/** The codes with cases that have a message of their own (`x-case-messages`), each as a pattern of its messages. */
const CASE_MESSAGES = new Map(
  Object.entries(components.schemas.ErrorCode['x-case-messages']).map(([code, template]) => [
    code,
    wordingOf(template),
  ]),
);

describe('error messages', () => {
  it('finds the error examples of the contract', () => {
    expect(examples.length).toBeGreaterThanOrEqual(10);
  });

  it.each(examples.filter(({ code }) => !CASE_MESSAGES.has(code)))(
    'gives $code the message of the contract example $name',
    ({ code, message }) => {
      expect(new ApiError(code).message).toBe(message);
    },
  );

  it.each(examples.filter(({ code }) => CASE_MESSAGES.has(code)))(
    'words $code as its case message of the contract, as the example $name shows',
    ({ code, message }) => {
      expect(message).toMatch(CASE_MESSAGES.get(code) ?? /^$/);
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
