// Invalid inputs, one schema constraint at a time (→ 400 naming the field), and the value just inside each bound
// (→ not refused as invalid). The cases come from the schemas of the body and the parameters (values.ts).
import { errorDetails, namesField } from '../checks.ts';
import type { Json, Operation } from '../contract.ts';
import { expectResponse } from '../expect.ts';
import type { Call } from '../http.ts';
import { Skip } from '../outcome.ts';
import { family } from '../rule.ts';
import type { Session } from '../session.ts';
import { bodyCases, type InputCase, minimalBody, parameterCases, setPath, uniquify } from '../values.ts';
import { creatorOf, crossFieldHint, hasPath } from './fields.ts';

interface InputVariant {
  c: InputCase;
  /** The example reduced to its required fields, when the schema accepts it (for values just inside). */
  minimalBase: Json | undefined;
}

function inputVariants(s: Session, op: Operation): InputVariant[] {
  const cases: InputCase[] = [];
  for (const p of op.parameters) {
    if (p.in === 'header' && p.name.toLowerCase() === 'x-store-id') continue;
    if (p.in === 'path' && !s.has('state')) continue;
    cases.push(...parameterCases(s.contract, p.schema, p.name, p.in, p.required));
  }
  let minimalBase: Json | undefined;
  if (op.requestBody?.example !== undefined) {
    cases.push(...bodyCases(s.contract, op.requestBody.schema as Json, op.requestBody.example));
    const reduced = minimalBody(s.contract, op.requestBody.schema as Json, op.requestBody.example);
    minimalBase = s.contract.validates(op.requestBody.schema, reduced) ? reduced : undefined;
  }
  return cases.map((c) => ({ c, minimalBase }));
}

function ruleName({ c }: InputVariant): string {
  const shown = c.value !== undefined && c.rule !== 'required' && JSON.stringify(c.value).length <= 40;
  const outcome = c.expect === 'invalid' ? '→ 400' : 'inside → accepted';
  return `input: ${c.location} ${c.field || '(body)'} ${c.rule} ${outcome}${shown ? ` (${JSON.stringify(c.value)})` : ''}`;
}

/** The valid request with the case's value put in its place. */
async function inputCall(s: Session, op: Operation, { c, minimalBase }: InputVariant) {
  const request = await s.validRequest(op, { fresh: c.expect === 'valid' });
  const call: Omit<Call, 'method' | 'path'> = { ...request, query: {} };
  if (c.location === 'body') {
    let body = request.body as Json;
    const parent = c.field.split('.').slice(0, -1);
    if (
      c.fromMinimal &&
      c.expect === 'valid' &&
      minimalBase !== undefined &&
      op.requestBody &&
      hasPath(minimalBase, parent)
    ) {
      body = uniquify(s.contract, op.requestBody.schema as Json, await s.substitute(minimalBase));
    }
    call.body = setPath(body, c.field, c.value);
    if (c.expect === 'valid' && op.requestBody && !s.contract.validates(op.requestBody.schema, call.body)) {
      throw new Skip(
        'the value is inside its own bounds but the whole body breaks another rule of the schema (not certain)',
      );
    }
  } else if (c.location === 'query') {
    if (c.value !== undefined) call.query = { [c.field]: String(c.value) };
  } else if (c.location === 'path') {
    call.pathParams = { ...request.pathParams, [c.field]: String(c.value) };
  } else if (c.value !== undefined) {
    call.headers = { ...request.headers, [c.field.toLowerCase()]: String(c.value) };
  }
  return call;
}

/** A value just inside its bounds: refused only for another reason, or it is a failure. */
async function expectAccepted(
  s: Session,
  op: Operation,
  c: InputCase,
  call: Omit<Call, 'method' | 'path'>,
  rule: string,
) {
  const exchange = await s.http.call({ method: op.method, path: op.path, ...call });
  const status = exchange.response.status;
  const details = errorDetails(exchange);
  if (status === 400 && details.length > 0 && !namesField(details, c.location, c.field)) {
    throw new Skip(
      `a rule beyond the schema refused the body (${details.map((d) => d.path).join(', ')}), not the value under test`,
    );
  }
  if (status === 400 && /^(minimum|maximum|exclusive)/.test(c.rule)) {
    throw new Skip(
      'a number just inside its bounds was refused: a rule between fields may narrow the bound (not certain)',
    );
  }
  if (status === 400 && c.rule === 'maxItems' && details.every((d) => d.path.startsWith(`${c.field}.`))) {
    throw new Skip('the repeated items break a rule between items, not the array size (not certain)');
  }
  const creator = creatorOf(s, op);
  const hinted =
    crossFieldHint(s, op, c.field) || (op.method === 'patch' && creator && crossFieldHint(s, creator, c.field));
  if (status === 400 && hinted) {
    throw new Skip('the field description names another rule (another field or a 400 of its own); not certain');
  }
  await expectResponse(s, op, rule, call, { not: 400 });
}

export const inputs = family<InputVariant>({
  rule: ruleName,
  applies: () => true,
  variants: inputVariants,
  async run(s, op, variant, rule) {
    const { c } = variant;
    if (c.location === 'query' && c.value === '' && !s.has('emptyQuery')) {
      throw new Skip('the target treats an empty query value as absent (Prism does)');
    }
    const call = await inputCall(s, op, variant);
    if (c.expect === 'valid') return expectAccepted(s, op, c, call, rule);
    await expectResponse(s, op, rule, call, {
      status: 400,
      codes: ['VALIDATION_ERROR'],
      field: { location: c.location, path: c.field, ...(c.parentOk ? { parentOk: true } : {}) },
    });
  },
});
