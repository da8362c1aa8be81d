// Every other documented response, as a shape: only where the target answers on request (Prism's Prefer).
import { expectResponse } from '../expect.ts';
import { family } from '../rule.ts';

export const documentedShapes = family<string>({
  rule: (status) => `shape: documented ${status} (Prefer: code=${status})`,
  applies: (s) => s.has('preferCode'),
  variants: (s, op) =>
    [...op.responses.keys()].filter(
      (status) => /^\d{3}$/.test(status) && !s.covered.has(`${op.operationId} ${status}`),
    ),
  async run(s, op, status, rule) {
    const request = await s.validRequest(op);
    await expectResponse(
      s,
      op,
      rule,
      { ...request, headers: { ...request.headers, prefer: `code=${status}` } },
      { status: Number(status) },
    );
  },
});
