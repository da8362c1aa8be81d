// Rules that need a target with state: unknown ids → 404, repeated unique values → 409, an unknown id in a body
// reference → 422 (where the operation documents them).
import { randomUUID } from 'node:crypto';
import type { Json, Operation } from '../contract.ts';
import { codesOf, expectResponse } from '../expect.ts';
import { Failure, Skip } from '../outcome.ts';
import { family, type SingleRule } from '../rule.ts';
import type { Session } from '../session.ts';
import { setPath } from '../values.ts';
import { bodyProperties, creatorOf } from './fields.ts';

const needsState = (s: Session) => {
  if (!s.has('state')) throw new Skip('needs state');
};

export const unknownPathId = family<string>({
  rule: (name) => `unknown ${name} → 404`,
  applies: (_s, op) => op.responses.has('404'),
  variants: (_s, op) => op.parameters.filter((p) => p.in === 'path').map((p) => p.name),
  async run(s, op, name, rule) {
    if (!s.has('state')) throw new Skip('needs state (a stateless target answers any id)');
    const request = await s.validRequest(op);
    await expectResponse(
      s,
      op,
      rule,
      { ...request, pathParams: { ...request.pathParams, [name]: randomUUID() } },
      { status: 404, codes: codesOf(op, 404, ['RESOURCE_NOT_FOUND']) },
    );
  },
});

const conflictCodes = (op: Operation) => op.responses.get('409')?.exampleCodes ?? [];

/** The unique values of a fresh record of the kind an update changes, as an update body. */
async function anotherRecordsValues(s: Session, op: Operation): Promise<Record<string, Json>> {
  const creator = creatorOf(s, op);
  if (!creator) throw new Skip('no create operation for this record kind');
  const other = await s.validRequest(creator, { minimal: true });
  const first = await s.http.call({ method: creator.method, path: creator.path, ...other });
  const created = await s.freeEnumValue(creator, other, first);
  if (created.response.status !== 201) throw new Failure(`set-up: ${creator.operationId} did not answer 201`, created);
  const body = JSON.parse(created.request.body ?? '{}') as Record<string, Json>;
  const props = bodyProperties(s, op);
  return Object.fromEntries(Object.entries(body).filter(([k, v]) => props.includes(k) && typeof v !== 'object'));
}

export const duplicateEntry: SingleRule = {
  rule: 'conflict: the same unique values twice → 409',
  applies: (_s, op) => conflictCodes(op).includes('DUPLICATE_ENTRY') && op.requestBody !== undefined,
  async run(s, op) {
    const rule = 'conflict: the same unique values twice → 409';
    needsState(s);
    const request = await s.validRequest(op, { fresh: true });
    const want = { status: 409, codes: conflictCodes(op) };
    if (op.method === 'post') {
      // the first may already collide (one record per value in a store): then the second must too
      await expectResponse(s, op, `${rule} (first)`, request, { status: [201, 200, 409] });
      await expectResponse(s, op, rule, request, want);
      return;
    }
    // an update taking another record's unique values: the values of a fresh record's create body
    await expectResponse(s, op, rule, { ...request, body: await anotherRecordsValues(s, op) }, want);
  },
};

/** A reference field of the body to point at nothing, and the body holding it. */
async function referenceToBreak(s: Session, op: Operation, body: Json): Promise<{ field?: string; body: Json }> {
  const field = s.referenceFields(body)[0];
  if (field || op.method !== 'patch') return { ...(field ? { field } : {}), body };
  // an update whose example changes no reference: one of the create example's, if the update accepts it
  const props = bodyProperties(s, op);
  const example = creatorOf(s, op)?.requestBody?.example;
  if (example === undefined || example === null || typeof example !== 'object' || Array.isArray(example))
    return { body };
  const found = s.referenceFields(example).find((f) => props.includes(f.split('.')[0] as string));
  if (!found) return { body };
  const top = found.split('.')[0] as string;
  const value = await s.substitute(example[top] as Json, top);
  return { field: found, body: { ...(body as object), [top]: value } as Json };
}

export const unknownReference: SingleRule = {
  rule: 'reference: unknown id in the body → 422',
  applies: (_s, op) =>
    (op.responses.get('422')?.exampleCodes ?? []).includes('REFERENCE_NOT_FOUND') && op.requestBody !== undefined,
  async run(s, op) {
    needsState(s);
    const request = await s.validRequest(op, { fresh: true });
    const { field, body } = await referenceToBreak(s, op, request.body as Json);
    if (!field) throw new Skip('the request example has no reference field to replace');
    await expectResponse(
      s,
      op,
      'reference: unknown id in the body → 422',
      { ...request, body: setPath(body, field, randomUUID()) },
      { status: 422, codes: op.responses.get('422')?.exampleCodes ?? [] },
    );
  },
};
