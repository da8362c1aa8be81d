// What no store can keep as sent, by the contract's "Text and nesting" rule: the NUL character (PostgreSQL text
// cannot hold it), a lone UTF-16 surrogate (not Unicode; it would read back as U+FFFD), nesting deeper than 32
// levels (it would exhaust a validator's stack), and a JSON body that is not valid UTF-8. Shared so the server
// and the mock refuse the same requests, with the same details.
import { type JsonObject, maxBodyDepth, shippedContract } from './contract.ts';
import { reason } from './reasons.ts';

/** The contract's nesting limit for a JSON body (`info` › `x-max-body-depth`, see "Text and nesting" there). */
export const MAX_BODY_DEPTH = maxBodyDepth(shippedContract());

export interface TextDetail extends JsonObject {
  location: 'body' | 'query';
  path: string;
  reason: string;
}

/** The detail for a JSON body whose bytes are not valid UTF-8. */
export const BODY_NOT_UTF8: TextDetail = { location: 'body', path: '', reason: reason('body-not-utf8') };

const NUL = '\u0000';
/** A UTF-16 surrogate not part of a pair: with the `u` flag only a lone one is seen as a surrogate code point. */
const LONE_SURROGATE = /\p{Surrogate}/u;

const HOLDS_NUL = reason('text-holds-nul');
const HOLDS_LONE_SURROGATE = reason('text-lone-surrogate');
const TOO_DEEP = reason('body-too-deep', { max: MAX_BODY_DEPTH });
/** A problem of an object key rather than of a value. */
const inAKey = (problem: string) => reason('text-in-a-key', { problem });

function textProblem(text: string): string | undefined {
  if (text.includes(NUL)) return HOLDS_NUL;
  if (LONE_SURROGATE.test(text)) return HOLDS_LONE_SURROGATE;
  return undefined;
}

/**
 * The first `length` characters of `text`, counted as JSON Schema's `maxLength` counts them (code points), so a
 * surrogate pair is never cut in half (half of one would be stored as U+FFFD).
 */
export const firstCharacters = (text: string, length: number): string => [...text].slice(0, length).join('');

/** Every reason of this rule, of a value or of a key. */
const UNSTORABLE_REASONS: ReadonlySet<string> = new Set(
  [HOLDS_NUL, HOLDS_LONE_SURROGATE, TOO_DEEP, BODY_NOT_UTF8.reason].flatMap((problem) => [problem, inAKey(problem)]),
);

/** Whether a detail's reason is one of this rule's (for tools that sort refusals by the rule that made them). */
export const isUnstorableTextReason = (given: string): boolean => UNSTORABLE_REASONS.has(given);

/**
 * The first string or key under `value` that no text column can hold faithfully, or the first place nested
 * deeper than `MAX_BODY_DEPTH`. The walk stops descending at the limit, so a hostile depth costs no more stack.
 */
export function unstorableText(
  value: unknown,
  location: TextDetail['location'],
  path: string[] = [],
): TextDetail | undefined {
  if (typeof value === 'string') {
    const problem = textProblem(value);
    return problem ? { location, path: path.join('.'), reason: problem } : undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  if (path.length >= MAX_BODY_DEPTH) {
    return { location, path: path[0] ?? '', reason: TOO_DEEP };
  }
  for (const [key, item] of Object.entries(value)) {
    const keyProblem = textProblem(key);
    // The key itself cannot be echoed in the path (it is what cannot be stored): name its parent.
    if (keyProblem) return { location, path: path.join('.'), reason: inAKey(keyProblem) };
    const found = unstorableText(item, location, [...path, key]);
    if (found) return found;
  }
  return undefined;
}
