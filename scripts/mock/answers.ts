// The answers the mock gives in the contract's own words: the shared responses of components/responses
// (Unauthorized, BadRequest, NotFound) with their first named example (an unknown path: NotFound's
// RouteNotFound), read from the spec at start-up, and what replaces Prism's reply when Prism made up an error of
// its own or kept the example's `details`.
import type http from 'node:http';
import {
  type ContractDocument,
  isObject,
  type Json,
  type JsonObject,
  maxBodyBytes,
  maxErrorDetails,
  type Operation,
} from '../../lib/contract.ts';
import type { NodeRefusal } from '../../lib/node-refusals.ts';
import { reason } from '../../lib/reasons.ts';
import { type WordedValues, worded } from '../../lib/worded.ts';
import { type Detail, inServerOrder, parseViolations, requestViolations, violationDetails } from './violations.ts';

/** A contract response the proxy can answer with. */
export interface ContractAnswer {
  status: number;
  body: Json;
  /** Headers the answer needs beyond the usual ones (a 405's `Allow`). */
  headers?: Record<string, string>;
}

/** What the proxy answers instead of Prism's own problem+json, keyed by the failure. */
export interface ContractErrors {
  unauthorized: ContractAnswer;
  badRequest: ContractAnswer;
  notFound: ContractAnswer;
  routeNotFound: ContractAnswer;
  methodNotAllowed: ContractAnswer;
  /** Absent when the spec gives no such answer (then the proxy leaves that check to Prism, or makes none). */
  payloadTooLarge: ContractAnswer | undefined;
  unsupportedMediaType: ContractAnswer | undefined;
  /** The most details an error names, the first found (none: every one). */
  maxDetails: number | undefined;
}

export interface PrismReply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** The status an envelope example states itself (meta.status), as the contract's envelope carries it. */
function statusOf(body: Json | undefined): number | undefined {
  const meta = isObject(body) ? body.meta : undefined;
  return isObject(meta) && typeof meta.status === 'number' ? meta.status : undefined;
}

/**
 * An example of a response object as an answer (the one named `name` where the response has it, else its first),
 * when it is an envelope stating its status.
 */
export function exampleAnswer(
  contract: ContractDocument,
  response: Json | undefined,
  name?: string,
): ContractAnswer | undefined {
  const examples = contract.examples(response);
  const body = (examples.find((example) => example.name === name) ?? examples[0])?.value;
  const status = statusOf(body);
  return body === undefined || status === undefined ? undefined : { status, body };
}

function sharedAnswer(contract: ContractDocument, name: string, exampleName?: string): ContractAnswer {
  const responses = isObject(contract.doc.components) ? contract.doc.components.responses : undefined;
  const answer = exampleAnswer(contract, isObject(responses) ? responses[name] : undefined, exampleName);
  if (!answer) {
    throw new Error(`The mock needs #/components/responses/${name} with a named example stating meta.status.`);
  }
  return answer;
}

export function loadContractErrors(contract: ContractDocument): ContractErrors {
  return {
    unauthorized: sharedAnswer(contract, 'Unauthorized'),
    badRequest: sharedAnswer(contract, 'BadRequest'),
    notFound: sharedAnswer(contract, 'NotFound'),
    // An unknown path: the NotFound response's `RouteNotFound` example where the contract has one.
    routeNotFound: sharedAnswer(contract, 'NotFound', 'RouteNotFound'),
    methodNotAllowed: unlistedAnswer(contract, 405),
    // A spec that limits bodies must say how the limit answers.
    payloadTooLarge:
      maxBodyBytes(contract) === undefined ? unlistedAnswerIfAny(contract, 413) : unlistedAnswer(contract, 413),
    unsupportedMediaType: unlistedAnswerIfAny(contract, 415),
    maxDetails: maxErrorDetails(contract),
  };
}

/**
 * The contract's answer for `status` among those any operation may give beyond its listed responses
 * (`x-unlisted-answers` of the ErrorResponse schema).
 */
function unlistedAnswer(contract: ContractDocument, status: number): ContractAnswer {
  const answer = unlistedAnswerIfAny(contract, status);
  if (answer === undefined) {
    throw new Error(`The mock needs #/components/schemas/ErrorResponse/x-unlisted-answers with meta.status ${status}.`);
  }
  return answer;
}

/** `unlistedAnswer`, or undefined when the spec has none for `status`. */
function unlistedAnswerIfAny(contract: ContractDocument, status: number): ContractAnswer | undefined {
  const schemas = isObject(contract.doc.components) ? contract.doc.components.schemas : undefined;
  const schema = isObject(schemas) ? schemas.ErrorResponse : undefined;
  const answers = isObject(schema) && Array.isArray(schema['x-unlisted-answers']) ? schema['x-unlisted-answers'] : [];
  const body = answers.find((answer) => statusOf(answer) === status);
  return body === undefined ? undefined : { status, body };
}

/**
 * The headers the operation's documented response for `status` requires, with their examples (Prism adds them to
 * its own replies; the proxy's own answers need them too). `X-Request-Id` is left to the proxy, which sets it.
 */
export function requiredHeaders(
  contract: ContractDocument,
  operation: Pick<Operation, 'raw'> | undefined,
  status: number,
): Record<string, string> {
  const responses = operation && isObject(operation.raw.responses) ? operation.raw.responses : {};
  const response = contract.deref(responses[String(status)] ?? responses.default);
  const declared = isObject(response) && isObject(response.headers) ? response.headers : {};
  const headers: Record<string, string> = {};
  for (const [name, raw] of Object.entries(declared)) {
    const header = contract.deref(raw);
    if (!isObject(header) || header.required !== true || name.toLowerCase() === 'x-request-id') continue;
    if (header.example !== undefined) headers[name.toLowerCase()] = String(header.example);
  }
  return headers;
}

/** An envelope with this request's details (none: the key is left out). */
export function withDetails(answer: ContractAnswer, details: Detail[]): ContractAnswer {
  if (!isObject(answer.body) || !isObject(answer.body.error)) return answer;
  const { details: _example, ...error } = answer.body.error;
  const body: JsonObject = { ...answer.body, error: details.length > 0 ? { ...error, details } : error };
  return { status: answer.status, body };
}

/** Whether a body is an envelope stating when it was answered (`meta.timestamp`). */
export function hasAnswerTime(body: Json): body is JsonObject & { meta: JsonObject } {
  return isObject(body) && isObject(body.meta) && body.meta.timestamp !== undefined;
}

/**
 * An envelope whose `meta.timestamp` (when it has one) is the time it is answered, as the server's is, rather than
 * the example's fixed instant: every answer the mock sends, its own and Prism's, goes through it.
 */
export function answeredNow(body: Json): Json {
  if (!hasAnswerTime(body)) return body;
  return { ...body, meta: { ...body.meta, timestamp: new Date().toISOString() } };
}

/** The mock's own 500s: Prism could not be reached, or did not answer in time. */
export type MockFailure = 'mock-unreachable' | 'mock-timeout';

/**
 * The message of one of the mock's own 500s, as the spec words it:
 * its `ErrorCode` › `x-case-messages` › `INTERNAL_ERROR.<mockCase>`, else the code's own message (`x-messages`),
 * else, a spec that words neither, the code itself.
 */
export function internalErrorMessage(
  contract: ContractDocument,
  mockCase: MockFailure,
  values: WordedValues = {},
): string {
  const cases = contract.pointer('#/components/schemas/ErrorCode/x-case-messages');
  const template = isObject(cases) ? cases[`INTERNAL_ERROR.${mockCase}`] : undefined;
  if (typeof template === 'string')
    return worded(template, values, `the spec's case message INTERNAL_ERROR.${mockCase}`);
  const message = contract.pointer('#/components/schemas/ErrorCode/x-messages/INTERNAL_ERROR');
  return typeof message === 'string' ? message : 'INTERNAL_ERROR';
}

/** An envelope answered with another status, its `meta.status` with it. */
function withStatus(answer: ContractAnswer, status: number): ContractAnswer {
  const { body } = answer;
  if (!isObject(body) || !isObject(body.meta)) return { ...answer, status };
  return { ...answer, status, body: { ...body, meta: { ...body.meta, status } } };
}

/**
 * The contract's catch-all 500 `INTERNAL_ERROR` (its description: "any operation may answer ... 500
 * INTERNAL_ERROR"), in the envelope of the BadRequest example: what the mock answers when Prism does not.
 */
export function internalError(errors: ContractErrors, message: string): ContractAnswer {
  const { body } = withDetails(errors.badRequest, []);
  if (!isObject(body) || !isObject(body.error)) return { status: 500, body };
  return withStatus({ status: 500, body: { ...body, error: { ...body.error, message, code: 'INTERNAL_ERROR' } } }, 500);
}

/** What Node refuses before the proxy sees a request (lib/node-refusals.ts), as the server answers it. */
export function refusalAnswer(errors: ContractErrors, refusal: NodeRefusal): ContractAnswer {
  if (refusal.kind === 'connect') return errors.methodNotAllowed;
  if (refusal.kind === 'too-large' && errors.payloadTooLarge) return errors.payloadTooLarge;
  const invalid = refusal.kind === 'invalid' ? refusal : { status: 400, reason: reason('request-malformed') };
  return withStatus(
    withDetails(errors.badRequest, [{ location: 'header', path: '', reason: invalid.reason }]),
    invalid.status,
  );
}

export function parseJson(body: Buffer): Json | undefined {
  try {
    return JSON.parse(body.toString('utf8')) as Json;
  } catch {
    return undefined;
  }
}

/** Prism's own problem+json: what failed in its `type` (…/prism/errors#TYPE), and its `validation` list. */
function prismProblem(reply: PrismReply): { type: string; validation: Json | undefined } {
  if (!String(reply.headers['content-type'] ?? '').startsWith('application/problem+json')) {
    return { type: '', validation: undefined };
  }
  const problem = parseJson(reply.body);
  if (!isObject(problem)) return { type: '', validation: undefined };
  return { type: String(problem.type ?? '').replace(/^.*#/, ''), validation: problem.validation };
}

/**
 * Whether Prism answered an invalid request from the wrong response: it answers one from a 422 whatever the
 * preference, and found no example of the preferred name there (the mock only asks for examples the operation
 * has, preferences.ts), so it answered its own 404 problem instead of the request's violations.
 */
export function missedExampleOfInvalid(reply: PrismReply, prefer: string | string[] | undefined): boolean {
  return /\bexample=/.test(String(prefer ?? '')) && prismProblem(reply).type === 'NOT_FOUND';
}

/** What Prism's `sl-violations` header starts with when it holds more than about 8 KiB of violations, cut. */
const VIOLATIONS_CUT_SHORT = 'Too many violations!';

/**
 * The proxy's own refusals among Prism's details: a field the proxy refused is named once, for its reason, not
 * again for what Prism read it as, and where Prism named it too, in Prism's place (the server's validator walks the
 * schema as Prism does); the others lead.
 */
function refusedInPlace(refused: Detail[], prisms: Detail[]): Detail[] {
  const field = (detail: Detail) => `${detail.location} ${detail.path}`;
  const own = new Map(refused.map((detail) => [field(detail), detail]));
  const placed = new Set<string>();
  const merged = prisms.flatMap((detail) => {
    const key = field(detail);
    const mine = own.get(key);
    if (!mine) return [detail];
    if (placed.has(key)) return [];
    placed.add(key);
    return [mine];
  });
  return [...refused.filter((detail) => !placed.has(field(detail))), ...merged];
}

/**
 * What the proxy found itself: what it refuses, the body's details should Prism's be cut short, and Prism's
 * details with each discriminated `oneOf` of the body judged by its selected branch alone (lib/discriminated-branches.ts).
 */
export interface ProxyDetails {
  refused: Detail[];
  bodyDetails: () => Detail[];
  inBranches: (details: Detail[]) => Detail[];
}

const NONE_OF_ITS_OWN: ProxyDetails = { refused: [], bodyDetails: () => [], inBranches: (details) => details };

/**
 * Decides what the client gets for one of Prism's replies: the reply itself, or the contract's answer when
 * Prism made up an error of its own. An invalid request always gets a 400 whose `details` are what the proxy
 * `refused` itself, then Prism's own violations (the operation's documented 400 example when Prism chose it,
 * else the shared BadRequest).
 */
export function reconcile(
  reply: PrismReply,
  errors: ContractErrors,
  operation?: Pick<Operation, 'parameters'>,
  { refused, bodyDetails, inBranches }: ProxyDetails = NONE_OF_ITS_OWN,
): ContractAnswer | undefined {
  const { type: problem, validation } = prismProblem(reply);
  // Prism cuts its header short past 8 KiB of violations: the body's details are then the proxy's own.
  const cutShort = String(reply.headers['sl-violations'] ?? '').startsWith(VIOLATIONS_CUT_SHORT);
  // Prism states the violations in its header when it answers with a documented response, else in its problem
  // (there without the leading `request` of their location)
  const header = parseViolations(reply.headers['sl-violations']);
  const violations = requestViolations(
    header.length > 0
      ? header
      : parseViolations(JSON.stringify(validation ?? [])).map((v) => ({
          ...v,
          location: ['request', ...(v.location ?? [])],
        })),
  );
  if (problem === 'UNAUTHORIZED' || violations.some((v) => v.code === 401)) {
    return reply.status === errors.unauthorized.status && !problem ? undefined : errors.unauthorized;
  }
  const invalid = cutShort || violations.length + refused.length > 0;
  if (['UNPROCESSABLE_ENTITY', 'INVALID_CONTENT_TYPE'].includes(problem) || invalid) {
    const documented = !problem && reply.status === errors.badRequest.status ? parseJson(reply.body) : undefined;
    const template = documented === undefined ? errors.badRequest : { status: reply.status, body: documented };
    const names = operation?.parameters.map((p) => p.name) ?? [];
    const prisms = inBranches(cutShort ? bodyDetails() : violationDetails(violations, names));
    return withDetails(template, inServerOrder(refusedInPlace(refused, prisms), names).slice(0, errors.maxDetails));
  }
  // Prism's router found no operation for the path: the contract's 404.
  if (/^NO_(PATH|RESOURCE|SERVER)_/.test(problem)) return errors.routeNotFound;
  return undefined;
}
