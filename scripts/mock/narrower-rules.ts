// What Prism accepts and the contract does not: a path's or a query's percent-escapes that do not decode
// (lib/percent-escapes.ts), text no store can keep (NUL, a lone surrogate, nesting deeper
// than 32 levels: lib/storable-text.ts), a query integer not in decimal digits (lib/query-integers.ts), and the
// formats Prism reads more widely (lib/formats.ts): a uuid with a `urn:uuid:` prefix, a date-time with a leap
// second or an offset without minutes. The proxy checks them with the contract's own definitions before
// asking Prism, so the mock refuses what the server refuses. A JSON `null` body too: Prism refuses it, but as no
// body at all, where the contract's schema refuses its type.
import type { IncomingHttpHeaders } from 'node:http';
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import { placedErrors } from '../../lib/ajv-errors.ts';
import { type ContractDocument, isObject, type Operation, type Parameter } from '../../lib/contract.ts';
import { contractAjv } from '../../lib/contract-ajv.ts';
import { CONTRACT_FORMATS, matchesContractFormat } from '../../lib/formats.ts';
import { decodes, MALFORMED_ESCAPE, malformedQueryParameter } from '../../lib/percent-escapes.ts';
import { integersNotDecimal, queryIntegerNames } from '../../lib/query-integers.ts';
import { BODY_NOT_UTF8, unstorableText } from '../../lib/storable-text.ts';
import { formatReason, validationReason } from '../../lib/validation-reasons.ts';
import type { Detail } from './violations.ts';

/** The value of each path parameter of `template` (`/api/v1/products/{productId}`) in `pathname`, as sent. */
function pathValues(template: string, pathname: string): Map<string, string> {
  const values = new Map<string, string>();
  const segments = pathname.split('/');
  template.split('/').forEach((part, index) => {
    const name = /^\{(.+)\}$/.exec(part)?.[1];
    const segment = segments[index];
    if (name && segment !== undefined) values.set(name, segment);
  });
  return values;
}

/** The value at a path of decoded segments in a JSON value, or undefined where there is none. */
function valueAt(value: unknown, segments: string[]): unknown {
  let here = value;
  for (const segment of segments) {
    if (here === null || typeof here !== 'object' || !Object.hasOwn(here, segment)) return undefined;
    here = (here as Record<string, unknown>)[segment];
  }
  return here;
}

/**
 * What the proxy refuses of a request. `alone`: the server checks these before its validator and answers them by
 * themselves (text no store can keep, then query integers), so Prism's own violations must not join them.
 */
export interface Refusal {
  details: Detail[];
  alone: boolean;
}

export type NarrowerRules = (
  operation: Operation,
  url: URL,
  headers: IncomingHttpHeaders,
  body: unknown,
  bodyNotUtf8?: boolean,
) => Refusal;

/** The validator of an operation's JSON body by the contract's own schema (undefined for one without a body). */
export type BodyValidator = (operation: Operation) => ValidateFunction | undefined;

/** Validators of request bodies as the server's validator reads them: ajv, the contract's formats. */
export function bodyValidators(contract: ContractDocument, ajv: Ajv2020 = contractAjv(contract)): BodyValidator {
  const bodies = new Map<string, ValidateFunction | undefined>();
  return (operation) => {
    if (!bodies.has(operation.pointer)) {
      const media = contract.pointer(`${operation.pointer}/requestBody/content/application~1json`);
      const schema = `contract#${operation.pointer}/requestBody/content/application~1json/schema`;
      bodies.set(operation.pointer, isObject(media) ? ajv.compile({ $ref: schema }) : undefined);
    }
    return bodies.get(operation.pointer);
  };
}

/**
 * Every detail of a JSON body by the contract's schema, worded and placed as the server's validator words and
 * places them (lib/ajv-errors.ts): what the mock says when Prism's own account is cut short.
 */
export function bodyDetails(bodyValidator: BodyValidator, operation: Operation, body: unknown): Detail[] {
  const validate = bodyValidator(operation);
  if (!validate || validate(body)) return [];
  return placedErrors(validate.errors ?? []).map(({ error, path }) => ({
    location: 'body',
    path,
    reason: validationReason(error.keyword, error.message),
  }));
}

/**
 * A checker of those rules for an operation's path, query and header parameters and its JSON body (`undefined`
 * when there is none): one detail per field that breaks one.
 */
export function narrowerRules(contract: ContractDocument, bodyValidator: BodyValidator): NarrowerRules {
  /**
   * The body's problems Prism reads otherwise, one detail per field: the contract's formats it lets through, a
   * JSON `null`, which it takes for no body at all while the contract's schema refuses its type, and a number too
   * large for a double, which it takes for a number past every maximum where the server's validator refuses its
   * type.
   */
  const bodyFormats = (operation: Operation, body: unknown): Detail[] => {
    const validate = body === undefined ? undefined : bodyValidator(operation);
    if (!validate || validate(body)) return [];
    return placedErrors(validate.errors ?? []).flatMap(({ error, segments, path }) => {
      // A JSON `null` body, and a number JSON.parse read as Infinity (`1e400`): Prism takes both for values.
      const notFinite = (value: unknown) => typeof value === 'number' && !Number.isFinite(value);
      if (error.keyword === 'type' && ((body === null && path === '') || notFinite(valueAt(body, segments)))) {
        return [{ location: 'body', path, reason: validationReason('type', error.message) }];
      }
      const format = String(error.params.format ?? '');
      if (error.keyword !== 'format' || !Object.hasOwn(CONTRACT_FORMATS, format)) return [];
      return [{ location: 'body', path, reason: formatReason(format) }];
    });
  };

  return (operation, url, headers, body, bodyNotUtf8 = false) => {
    const query = Object.fromEntries(
      [...new Set(url.searchParams.keys())].map((name) => {
        const values = url.searchParams.getAll(name);
        return [name, values.length === 1 ? values[0] : values];
      }),
    );
    // Escapes that do not decode come first, then a body that is not UTF-8, then the store's own limits, then the
    // query's integers, each alone, as on the server.
    const inPath = pathValues(operation.path, url.pathname);
    // A path parameter's escapes that do not decode stopped Prism's process: refused first, as on the server.
    const undecoded = [...inPath].find(([, value]) => !decodes(value))?.[0];
    if (undecoded !== undefined) {
      return { details: [{ location: 'path', path: undecoded, reason: MALFORMED_ESCAPE }], alone: true };
    }
    const malformed = malformedQueryParameter(url.search.slice(1));
    if (malformed !== undefined) {
      return { details: [{ location: 'query', path: malformed, reason: MALFORMED_ESCAPE }], alone: true };
    }
    if (bodyNotUtf8) return { details: [BODY_NOT_UTF8], alone: true };
    const unstorable = unstorableText(query, 'query') ?? unstorableText(body, 'body');
    if (unstorable) return { details: [unstorable], alone: true };
    const integers = integersNotDecimal(queryIntegerNames(contract, operation.parameters), (name) => query[name]);
    if (integers.length > 0) return { details: integers, alone: true };
    const sent = (parameter: Parameter): unknown =>
      parameter.in === 'path'
        ? decodeURIComponent(inPath.get(parameter.name) ?? '')
        : parameter.in === 'query'
          ? query[parameter.name]
          : headers[parameter.name.toLowerCase()];
    const parameterFormats = operation.parameters.flatMap((parameter): Detail[] => {
      const schema = contract.deref(parameter.schema);
      const format = isObject(schema) && typeof schema.format === 'string' ? schema.format : '';
      const given = sent(parameter);
      if (typeof given !== 'string' || matchesContractFormat(format, given) !== false) return [];
      const path = parameter.in === 'header' ? parameter.name.toLowerCase() : parameter.name;
      return [{ location: parameter.in, path, reason: formatReason(format) }];
    });
    return { details: [...parameterFormats, ...bodyFormats(operation, body)], alone: false };
  };
}
