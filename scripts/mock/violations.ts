// Prism's own account of what is wrong with a request (the `sl-violations` response header) turned into the
// contract's `error.details`: one entry per failing field, with its location and dotted path.

import { isConditionalSummary } from '../../lib/ajv-errors.ts';
import { isObject, type JsonObject } from '../../lib/contract.ts';
import { pointerSegmentName } from '../../lib/json-pointer.ts';
import { withoutNullAlternatives } from '../../lib/null-alternatives.ts';
import { missingReason, validationReason } from '../../lib/validation-reasons.ts';

export interface PrismViolation {
  location?: string[];
  code?: string | number;
  message?: string;
  severity?: string;
}

export interface Detail extends JsonObject {
  location: string;
  path: string;
  reason: string;
}

const LOCATIONS = new Set(['body', 'query', 'path', 'header']);

/** The violations of a Prism reply's header (none when absent or unreadable). */
export function parseViolations(header: string | string[] | undefined): PrismViolation[] {
  if (typeof header !== 'string') return [];
  try {
    const parsed: unknown = JSON.parse(header);
    return Array.isArray(parsed) ? parsed.filter(isObject) : [];
  } catch {
    return [];
  }
}

/** Violations of the request (not of Prism's own response), errors only. */
export function requestViolations(violations: PrismViolation[]): PrismViolation[] {
  return violations.filter((v) => v.location?.[0] === 'request' && (v.severity ?? 'Error') === 'Error');
}

/** The property a `required` or `additionalProperties` violation is about: Prism names it in the message only. */
function namedProperty(violation: PrismViolation): string | undefined {
  const message = violation.message ?? '';
  if (violation.code === 'required') return /required property '([^']+)'/.exec(message)?.[1];
  if (violation.code === 'additionalProperties') return /found '([^']+)'/.exec(message)?.[1];
  return undefined;
}

/** Prism's account of a request without a body, which it places on the request itself: the body's detail. */
const MISSING_BODY = 'Body parameter is required';

function missingBody(violation: PrismViolation): boolean {
  const [, location = ''] = violation.location ?? [];
  return location === '' && violation.code === 'required' && violation.message === MISSING_BODY;
}

/** Where a violation is: its location below `request`, or `body` for a missing body. */
function locationOf(violation: PrismViolation): [string, ...string[]] {
  const [, location = '', ...named] = violation.location ?? [];
  return [missingBody(violation) ? 'body' : location, ...named];
}

/** ajv's own message at the end of Prism's: from its first "must", or a false schema's. */
const AJV_MESSAGE = / (must .*|boolean schema is false)$/;

/**
 * A Prism message in the validator's own words, as the server has them: Prism puts where the value is in front
 * ("Request body property name must …", "Request query parameter page must …") and an unknown property's name
 * behind ("…; found 'zzz'"), which a detail already says in its location and path.
 */
function validatorMessage(message: string | undefined): string | undefined {
  if (!message?.startsWith('Request ')) return message;
  return AJV_MESSAGE.exec(message.replace(/; found '.*'$/, ''))?.[1] ?? message;
}

/**
 * One violation as a detail. Prism lower-cases query and path parameter names: `parameters` (the operation's)
 * give them back their contract spelling; header names stay lower-case, as HTTP has them.
 */
export function detailOf(violation: PrismViolation, parameters: string[] = []): Detail | undefined {
  const [location, ...named] = locationOf(violation);
  if (!LOCATIONS.has(location)) return undefined;
  const property = namedProperty(violation);
  // Prism names parameters in lower case, a missing one too (as the property of its `required`).
  const segments = [...named.map(pointerSegmentName), ...(property ? [property] : [])];
  const [first, ...rest] = segments;
  const spelled =
    location === 'query' || location === 'path' ? parameters.find((p) => p.toLowerCase() === first) : undefined;
  const path = (first === undefined ? [] : [spelled ?? first, ...rest]).join('.');
  return {
    location,
    path: location === 'header' ? path.toLowerCase() : path,
    // A missing body is worded as the server's validator words it, where Prism has words of its own.
    reason: missingBody(violation)
      ? missingReason('body')
      : validationReason(String(violation.code ?? ''), validatorMessage(violation.message)),
  };
}

/**
 * The details of a request's violations, one per distinct field and reason, a nullable field's failure named once
 * (lib/null-alternatives.ts) and a conditional's summary left out (lib/ajv-errors.ts), as the server names them.
 */
export function violationDetails(violations: PrismViolation[], parameters: string[] = []): Detail[] {
  const read = requestViolations(violations).flatMap((violation) => {
    const detail = detailOf(violation, parameters);
    if (!detail) return [];
    const keyword = String(violation.code ?? '');
    if (isConditionalSummary(keyword)) return [];
    const nullAlternative = keyword === 'type' && validatorMessage(violation.message) === 'must be null';
    return [{ detail, path: `${detail.location}.${detail.path}`, keyword, nullAlternative }];
  });
  const seen = new Set<string>();
  const details: Detail[] = [];
  for (const { detail } of withoutNullAlternatives(read)) {
    const key = `${detail.location} ${detail.path} ${detail.reason}`;
    if (seen.has(key)) continue;
    seen.add(key);
    details.push(detail);
  }
  return details;
}

/** The order the server's validator reports locations in: its query, header and path schemas, then the body. */
const LOCATION_ORDER = ['query', 'header', 'path', 'body'];

/**
 * Details in the order the server lists them: by location (LOCATION_ORDER), parameters in the operation's order
 * (`parameters`, the contract's spelling); the body's details keep their order, the order of the schema, which
 * Prism and the server walk alike.
 */
export function inServerOrder<T extends { location: string; path: string }>(details: T[], parameters: string[]): T[] {
  const parameterIndex = (detail: T) =>
    detail.location === 'body'
      ? 0
      : parameters.findIndex((name) => name.toLowerCase() === detail.path.split('.')[0]?.toLowerCase());
  const rank = (detail: T) => [LOCATION_ORDER.indexOf(detail.location), parameterIndex(detail)] as const;
  // A stable sort: details of one rank keep Prism's order.
  return details.toSorted((a, b) => rank(a)[0] - rank(b)[0] || rank(a)[1] - rank(b)[1]);
}
