import { describe, expect, it } from 'vitest';
import { type BranchError, withoutNullAlternatives } from './null-alternatives.ts';

const error = (path: string, keyword: string, nullAlternative = false): BranchError => ({
  path,
  keyword,
  nullAlternative,
});

describe('withoutNullAlternatives', () => {
  it("names a nullable field for what is wrong with its value: the null branch's refusal and the oneOf's go", () => {
    const format = error('body.startsAt', 'format');
    const errors = [
      error('body.name', 'required'),
      format,
      error('body.startsAt', 'type', true),
      error('body.startsAt', 'oneOf'),
    ];
    expect(withoutNullAlternatives(errors)).toEqual([error('body.name', 'required'), format]);
  });

  it('counts what fails below the field: an object branch that fails inside', () => {
    const inner = error('body.address.zip', 'pattern');
    expect(
      withoutNullAlternatives([inner, error('body.address', 'type', true), error('body.address', 'anyOf')]),
    ).toEqual([inner]);
  });

  it('keeps them where nothing else says what is wrong, and never reads a sibling as the field', () => {
    const unexplained = [
      error('body.startsAt', 'type', true),
      error('body.startsAt', 'oneOf'),
      error('body.startsAtX', 'format'),
    ];
    expect(withoutNullAlternatives(unexplained)).toEqual(unexplained);
  });
});
