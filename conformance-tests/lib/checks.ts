// What every response must satisfy, whatever the request: a documented status, the documented content type,
// the body schema, the section 7 envelope (meta.status equal to the status), and the documented headers.
import type { Contract, Operation } from './contract.ts';
import { isObject } from './contract.ts';
import type { Exchange } from './http.ts';

/** The documented response for a status: exact, then a range such as 2XX, then default. */
export function documentedResponse(op: Operation, status: number) {
  return op.responses.get(String(status)) ?? op.responses.get(`${String(status)[0]}XX`) ?? op.responses.get('default');
}

/** Problems with a response against the contract; empty when it conforms. */
export function responseProblems(contract: Contract, op: Operation, exchange: Exchange): string[] {
  const problems: string[] = [];
  const { status, headers, body, json } = exchange.response;
  const documented = documentedResponse(op, status);
  if (!documented) {
    return [
      `status ${status} is not documented for ${op.operationId} (documented: ${[...op.responses.keys()].join(', ')})`,
    ];
  }
  const contentType = headers['content-type'] ?? '';
  if (documented.contentType) {
    if (!contentType.startsWith(documented.contentType)) {
      problems.push(`content-type is "${contentType}", the contract says ${documented.contentType}`);
    }
    if (json === undefined) problems.push('the body is not JSON');
    else {
      const validate = contract.validator(
        `${documented.pointer}/content/${documented.contentType.replace('/', '~1')}/schema`,
      );
      if (!validate(json)) {
        const errors = (validate.errors ?? [])
          .slice(0, 5)
          .map(
            (e) =>
              `${e.instancePath || '(root)'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` "${String(e.params.additionalProperty)}"` : ''}`,
          );
        problems.push(`the body does not match the ${status} schema: ${errors.join('; ')}`);
      }
    }
  } else if (body.length > 0 && status === 204) {
    problems.push('a 204 response has a body');
  }
  if (isObject(json)) {
    if (status >= 400 && status !== 429) {
      if (json.success !== false) problems.push('an error body must have success: false');
      const meta = json.meta;
      if (!isObject(meta) || meta.status !== status) {
        problems.push(
          `meta.status is ${isObject(meta) ? JSON.stringify(meta.status) : 'missing'}, the HTTP status is ${status}`,
        );
      }
    } else if (status < 300 && json.success !== true) {
      problems.push('a success body must have success: true');
    }
  }
  if (status === 429) {
    const retryAfter = headers['retry-after'];
    if (!retryAfter || !/^[1-9]\d*$/.test(retryAfter))
      problems.push(`Retry-After must be whole seconds ≥ 1, got ${JSON.stringify(retryAfter)}`);
    else if (isObject(json) && json.retryAfter !== Number(retryAfter)) {
      problems.push(`body retryAfter ${JSON.stringify(json.retryAfter)} differs from Retry-After ${retryAfter}`);
    }
  }
  for (const [name, header] of Object.entries(documented.headers)) {
    const value = headers[name];
    if (value === undefined) {
      if (header.required) problems.push(`header ${name} is required`);
      continue;
    }
    const typed = header.schema.type === 'integer' || header.schema.type === 'number' ? Number(value) : value;
    if (!contract.validates(header.schema, typed)) problems.push(`header ${name}: ${value} does not match its schema`);
  }
  return problems;
}

/** The error code of an error body (standard envelope or the 429 body). */
export function errorCode(exchange: Exchange): string | undefined {
  const json = exchange.response.json;
  if (!isObject(json)) return undefined;
  if (isObject(json.error) && typeof json.error.code === 'string') return json.error.code;
  return typeof json.error === 'string' ? json.error : undefined;
}

export interface Detail {
  location: string;
  path: string;
}

export function errorDetails(exchange: Exchange): Detail[] {
  const json = exchange.response.json;
  if (!isObject(json) || !isObject(json.error) || !Array.isArray(json.error.details)) return [];
  return json.error.details.filter(isObject).map((d) => ({ location: String(d.location), path: String(d.path) }));
}

/** Whether a detail names the field (itself or inside it; a parent when the rule allows). */
export function namesField(details: Detail[], location: string, field: string, parentOk = false): boolean {
  const lower = (s: string) => (location === 'header' ? s.toLowerCase() : s);
  return details.some((d) => {
    if (d.location !== location) return false;
    const p = lower(d.path);
    const f = lower(field);
    if (p === f || p.startsWith(`${f}.`) || f === '') return true;
    return parentOk && (p === '' || f.startsWith(`${p}.`) || f.split('.').slice(0, -1).join('.') === p);
  });
}
