// One request of a check and what the check wants of its response: the response is first held against the
// contract (documented status, content type, schema, envelope, headers), then against the rule.
import { errorCode, errorDetails, namesField, responseProblems } from './checks.ts';
import type { Operation } from './contract.ts';
import type { Call, Exchange } from './http.ts';
import { Failure } from './outcome.ts';
import type { Session } from './session.ts';

export interface Want {
  status?: number | number[];
  /** Any 2xx. */
  success?: boolean;
  /** Any status but this one (a value just inside a bound must not be refused as invalid). */
  not?: number;
  codes?: string[];
  field?: { location: string; path: string; parentOk?: boolean };
}

const statusesOf = (want: Want) =>
  want.status === undefined ? [] : Array.isArray(want.status) ? want.status : [want.status];

/** Sends a request, checks the response against the contract, then against what the rule wants. */
export async function expectResponse(
  s: Session,
  op: Operation,
  rule: string,
  call: Omit<Call, 'method' | 'path'>,
  want: Want,
): Promise<Exchange> {
  const accept429 = statusesOf(want).includes(429);
  const exchange = await s.http.call({ method: op.method, path: op.path, ...call, accept429 });
  return assertExchange(s, op, rule, exchange, want);
}

/** Checks a response received against the contract, then against what the rule wants. */
export function assertExchange(s: Session, op: Operation, rule: string, exchange: Exchange, want: Want): Exchange {
  const { status } = exchange.response;
  const fail = (why: string): never => {
    throw new Failure(`${op.operationId} — ${rule}: ${why}`, exchange);
  };
  const problems = responseProblems(s.contract, op, exchange);
  if (problems.length === 0) s.covered.add(`${op.operationId} ${status}`);
  s.exercised.add(op.operationId);
  const wanted = statusesOf(want);
  if (wanted.length > 0 && !wanted.includes(status))
    fail(`expected ${wanted.join(' or ')}, got ${status}${problems.length ? `; ${problems.join('; ')}` : ''}`);
  if (want.success && (status < 200 || status > 299)) fail(`expected a 2xx response, got ${status}`);
  if (want.not !== undefined && status === want.not) {
    fail(`expected the value to be accepted (not ${want.not}), got ${status} ${errorCode(exchange) ?? ''}`);
  }
  if (problems.length > 0) fail(`the response breaks the contract: ${problems.join('; ')}`);
  if (want.codes && want.codes.length > 0) {
    const code = errorCode(exchange);
    if (!code || !want.codes.includes(code))
      fail(`expected error code ${want.codes.join(' or ')}, got ${code ?? 'none'}`);
  }
  if (want.field && s.has('details')) {
    const { location, path, parentOk } = want.field;
    if (!namesField(errorDetails(exchange), location, path, parentOk)) {
      fail(`expected error.details to name ${location} "${path}", got ${JSON.stringify(errorDetails(exchange))}`);
    }
  }
  return exchange;
}

/** The error codes an operation documents for a status (its examples'), or the fallback. */
export function codesOf(op: Operation, status: number, fallback: string[]): string[] {
  const codes = op.responses.get(String(status))?.exampleCodes ?? [];
  return codes.length > 0 ? codes : fallback;
}
