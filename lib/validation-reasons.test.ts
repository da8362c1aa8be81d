// The reasons of failed schema keywords are the contract's words (`ErrorDetail` › `reason` › `x-keyword-reasons`),
// the validator's own English only ever in parentheses after them.
import { describe, expect, it } from 'vitest';
import { keywordReason, reason } from './reasons.ts';
import { validationReason } from './validation-reasons.ts';

describe('validationReason', () => {
  it('words a keyword the contract names with its reason, the message after it', () => {
    const stated = keywordReason('required');
    expect(stated).toBeDefined();
    expect(validationReason('required', "must have required property 'name'")).toBe(
      `${stated} (must have required property 'name')`,
    );
    expect(validationReason('required')).toBe(stated);
  });

  it('words any other keyword with keyword-unknown, never with the message alone', () => {
    expect(keywordReason('notAKeywordOfTheContract')).toBeUndefined();
    expect(validationReason('notAKeywordOfTheContract', 'must NOT be valid')).toBe(
      `${reason('keyword-unknown')} (must NOT be valid)`,
    );
    expect(validationReason('notAKeywordOfTheContract')).toBe(reason('keyword-unknown'));
  });
});
