// Runs the whole suite against one target: generic checks for every operation, then the behaviour tests, then
// the rate limit, telling `options.progress` as each operation and tier ends.
import { behaviourTests } from './behaviour.ts';
import { Contract, DEFAULT_CONTRACT, type Operation } from './contract.ts';
import { checkOperation } from './generic.ts';
import { describeExchange } from './http.ts';
import type { Options } from './options.ts';
import { Failure } from './outcome.ts';
import { checkRateLimit, discoverRateLimit } from './rate-limit.ts';
import { Session } from './session.ts';

type Progress = (line: string) => void;

function tally(s: Session, operationIds: Set<string>): string {
  const c = { pass: 0, fail: 0, skip: 0 };
  for (const r of s.results) if (operationIds.has(r.operationId)) c[r.outcome] += 1;
  return `${c.pass} passed, ${c.fail} failed, ${c.skip} skipped`;
}

/** The run's own store and keys, and the rate limit the target states when none was given. */
async function setUp(s: Session, progress: Progress): Promise<boolean> {
  try {
    await s.prepare();
    if (s.has('admin') && !s.options.rateLimitMax) {
      const limit = await discoverRateLimit(s);
      if (limit) {
        s.options.rateLimitMax = limit.max;
        s.options.rateLimitWindowSeconds = limit.windowSeconds;
        s.capabilities.add('rateLimit');
      }
      progress(
        limit
          ? `rate limit of the target (RateLimit-Policy): ${limit.max} per ${limit.windowSeconds} s`
          : 'rate limit of the target unknown (no RateLimit-Policy header): the 429 checks will be skipped',
      );
    }
    return true;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const exchange = error instanceof Failure && error.exchange ? describeExchange(error.exchange) : undefined;
    s.results.push({ operationId: '*', rule: 'set-up', outcome: 'fail', message, ...(exchange ? { exchange } : {}) });
    progress(`set-up failed: ${message}${exchange ? `\n${exchange}` : ''}`);
    return false;
  }
}

async function operationTier(s: Session, ops: Operation[], concurrency: number, progress: Progress) {
  const queue = [...ops];
  let done = 0;
  const workers = Array.from({ length: concurrency }, async () => {
    for (let op = queue.shift(); op; op = queue.shift()) {
      const started = Date.now();
      const child = await s.child();
      await checkOperation(child, op);
      await child.cleanUp();
      done += 1;
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      progress(
        `[${String(done).padStart(3)}/${ops.length}] ${op.operationId.padEnd(32)} ${tally(s, new Set([op.operationId]))} (${seconds} s)`,
      );
    }
  });
  await Promise.all(workers);
}

async function behaviourTier(s: Session, only: string[] | undefined, progress: Progress) {
  for (const test of behaviourTests) {
    if (only && !only.includes(test.operationId)) continue;
    const missing = test.needs.filter((need) => !s.has(need));
    if (missing.length > 0) {
      const message = `needs ${missing.join(', ')}`;
      s.results.push({ operationId: test.operationId, rule: test.rule, outcome: 'skip', message });
      progress(`behaviour ${test.operationId}: skipped (${message})`);
      continue;
    }
    const child = await s.child();
    await s.check(test.operationId, test.rule, () => test.run(child));
    await child.cleanUp();
    progress(`behaviour ${test.operationId}: ${s.results.at(-1)?.outcome ?? ''} — ${test.rule}`);
  }
}

export async function runSuite(given: Options, contractFile = DEFAULT_CONTRACT): Promise<Session> {
  // a copy: the rate limit found on the target is written into it
  const options: Options = { ...given };
  const progress = options.progress ?? (() => {});
  const contract = new Contract(contractFile);
  const s = new Session(contract, options);
  if (!(await setUp(s, progress))) return s;
  const ops = contract.operations.filter((op) => !options.only || options.only.includes(op.operationId));
  progress(`conformance of ${options.baseUrl}: ${ops.length} operations (${[...s.capabilities].join(', ')})`);
  await operationTier(s, ops, options.concurrency ?? 12, progress);
  await behaviourTier(s, options.only, progress);
  await checkRateLimit(s, ops);
  progress(`rate limit: ${tally(s, new Set(['*', ...ops.map((op) => op.operationId)]))} in all so far`);
  await s.cleanUp();
  if (s.sharesStore) await s.removeCached();
  return s;
}
