// Section 2: timestamps are ISO 8601 date-time strings in UTC. A date-time a client sends with another offset is
// the same instant, answered and read back in UTC: a target that echoed the offset as sent would answer local
// times that section 2 says it never gives.
import { assert, type BehaviourTest, data } from './behaviour-kit.ts';
import { isObject, type JsonObject } from './contract.ts';
import { expectResponse } from './expect.ts';

/** Sent at São Paulo's and at India's offsets: the instants 2031-03-01T03:00:00Z and 2031-03-31T18:29:59Z. */
const SENT = { startAt: '2031-03-01T00:00:00-03:00', endAt: '2031-03-31T23:59:59+05:30' } as const;

/** Why `answered` is not `sent` in UTC (the same instant, written with `Z`), or undefined when it is. */
function notInUtc(answered: unknown, sent: string): string | undefined {
  if (typeof answered === 'string' && answered.endsWith('Z') && Date.parse(answered) === Date.parse(sent)) return;
  return `${JSON.stringify(answered)} for ${sent} (expected the same instant in UTC, ending in Z)`;
}

export const timestampBehaviour: BehaviourTest[] = [
  {
    operationId: 'createDiscountRange',
    rule: 'a date-time sent with another offset is answered and read back in UTC, the same instant (section 2)',
    needs: ['state'],
    async run(s) {
      const create = s.operation('createDiscountRange');
      const { body } = await s.validRequest(create);
      const created = await expectResponse(
        s,
        create,
        'create with offsets',
        { headers: await s.authHeaders(create), body: { ...(body as JsonObject), ...SENT } },
        { status: 201 },
      );
      const range = data(created.response.json).discountRange;
      assert(isObject(range) && typeof range.id === 'string', 'createDiscountRange — no discountRange.id', created);
      const read = s.operation('getDiscountRangeById');
      const got = await expectResponse(
        s,
        read,
        'read back',
        { headers: await s.authHeaders(read), pathParams: { discountRangeId: range.id } },
        { status: 200 },
      );
      const stored = data(got.response.json).discountRange;
      for (const [field, sent] of Object.entries(SENT)) {
        const atCreate = notInUtc(range[field], sent);
        assert(!atCreate, `createDiscountRange — ${field} answered ${atCreate}`, created);
        const atRead = notInUtc(isObject(stored) ? stored[field] : undefined, sent);
        assert(!atRead, `getDiscountRangeById — ${field} read back ${atRead}`, got);
      }
    },
  },
];
