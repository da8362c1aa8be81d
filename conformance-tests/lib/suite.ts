// Runs the whole suite against one target: generic checks for every operation, then the behaviour tests.
import { behaviourTests } from './behaviour.ts';
import { Contract, DEFAULT_CONTRACT } from './contract.ts';
import { checkOperation, checkRateLimit } from './generic.ts';
import { Failure, type Options, Session } from './session.ts';

export async function runSuite(options: Options, contractFile = DEFAULT_CONTRACT): Promise<Session> {
  const contract = new Contract(contractFile);
  const s = new Session(contract, options);
  try {
    await s.prepare();
  } catch (error) {
    s.results.push({
      operationId: '*',
      rule: 'set-up',
      outcome: 'fail',
      message: error instanceof Failure ? error.message : String(error),
    });
    return s;
  }
  const ops = contract.operations.filter((op) => !options.only || options.only.includes(op.operationId));
  const queue = [...ops];
  const workers = Array.from({ length: options.concurrency ?? 12 }, async () => {
    for (let op = queue.shift(); op; op = queue.shift()) await checkOperation(await s.child(), op);
  });
  await Promise.all(workers);
  for (const test of behaviourTests) {
    if (options.only && !options.only.includes(test.operationId)) continue;
    const missing = test.needs.filter((need) => !s.has(need));
    if (missing.length > 0) {
      s.results.push({
        operationId: test.operationId,
        rule: test.rule,
        outcome: 'skip',
        message: `needs ${missing.join(', ')}`,
      });
      continue;
    }
    const child = await s.child();
    await s.check(test.operationId, test.rule, () => test.run(child));
  }
  await checkRateLimit(s, ops);
  return s;
}
