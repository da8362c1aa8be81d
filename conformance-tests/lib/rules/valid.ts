// A valid request (the operation's example, its ids replaced by the run's records) → a documented 2xx.
import { errorDetails } from '../checks.ts';
import { assertExchange, expectResponse } from '../expect.ts';
import type { SingleRule } from '../rule.ts';
import { isRequired } from './fields.ts';

export const validRequest: SingleRule = {
  rule: 'valid request → 2xx',
  applies: () => true,
  async run(s, op) {
    let request = await s.validRequest(op, { fresh: true });
    if (s.has('state')) {
      // an optional field of the example naming a record by code (not by id) cannot point at the run's records
      const probe = await s.http.call({ method: op.method, path: op.path, ...request });
      const optional = errorDetails(probe).filter((d) => d.location === 'body' && !isRequired(s, op, d.path));
      if (probe.response.status !== 422 || !op.responses.has('422') || optional.length === 0) {
        assertExchange(s, op, 'valid request → 2xx', await s.freeEnumValue(op, request, probe), { success: true });
        return;
      }
      const fields = optional.map((d) => d.path);
      s.dropped.set(op.operationId, fields);
      s.results.push({
        operationId: op.operationId,
        rule: 'valid request: example fields',
        outcome: 'skip',
        message: `the example's ${fields.join(', ')} refer to records the suite cannot create by id; sent without them`,
      });
      request = await s.validRequest(op, { fresh: true });
    }
    await expectResponse(s, op, 'valid request → 2xx', request, { success: true });
  },
};
