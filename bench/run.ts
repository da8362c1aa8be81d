// `npm run bench [-- --quick] [-- --targets=a,b] [-- --baseline-ref=<git ref>]`: starts every target in turn, runs
// the workloads at each connection count, writes reports/bench.json and reports/bench.md, and prints the Markdown.
// Exit code 1 when the run is not valid (a target failed to start, or any non-2xx/error response).
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from './fixtures.ts';
import { type Measurement, type MemoryCheck, measure, memoryCheck } from './load.ts';
import { checkGoals, machine, markdown, type Report, type Settings, withRatios } from './report.ts';
import { DEFAULT_DATABASE_URL, postgresReachable, startTarget, TARGET_NAMES, type TargetName } from './targets.ts';
import { workloadsFor } from './workloads.ts';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    targets: { type: 'string' },
    'baseline-ref': { type: 'string' },
  },
});

const quick = values.quick;
const settings: Settings = quick
  ? {
      quick,
      connections: [10, 50],
      warmupSeconds: 0.25,
      seconds: 0.5,
      webhookCounts: [100, 1_000],
      memoryWarmupRequests: 500,
      memoryRequests: 1_000,
      memoryTargets: ['server-embedded'],
    }
  : {
      quick,
      connections: [10, 50],
      warmupSeconds: 3,
      seconds: 10,
      webhookCounts: [1_000, 100_000],
      memoryWarmupRequests: 20_000,
      memoryRequests: 100_000,
      memoryTargets: ['server-embedded'],
    };
const databaseUrl = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
const names = (values.targets?.split(',') ?? [...TARGET_NAMES]) as TargetName[];
for (const name of names) {
  if (!(TARGET_NAMES as readonly string[]).includes(name)) {
    throw new Error(`Unknown target ${name}; targets: ${TARGET_NAMES.join(', ')}`);
  }
}
// The same server at another commit, measured right after this one: "before and after" in one run.
const baselineRef = values['baseline-ref'];
if (baselineRef)
  names.splice(names.indexOf('server-embedded') + 1 || names.length, 0, `server-embedded@${baselineRef}`);

const started = Date.now();
const rows: Measurement[] = [];
const memory: MemoryCheck[] = [];
const coldStarts: Report['coldStarts'] = [];
const skipped: Report['skipped'] = [];
let failed = false;

for (const name of names) {
  if (name === 'server-postgres') {
    const unreachable = await postgresReachable(databaseUrl);
    if (unreachable) {
      skipped.push({ target: name, reason: unreachable });
      console.error(`bench: ${name} skipped: ${unreachable}`);
      continue;
    }
  }
  console.error(`bench: starting ${name} (${Math.round((Date.now() - started) / 1000)} s)`);
  let target: Awaited<ReturnType<typeof startTarget>>;
  try {
    target = await startTarget(name, { webhookCounts: settings.webhookCounts, databaseUrl });
  } catch (error) {
    failed = true;
    skipped.push({ target: name, reason: `did not start: ${(error as Error).message.split('\n')[0]}` });
    console.error(`bench: ${name} did not start:`, error);
    continue;
  }
  coldStarts.push({ target: name, ms: target.coldStartMs });
  console.error(`bench: ${name} answered its first request ${Math.round(target.coldStartMs)} ms after spawn`);
  try {
    if (settings.memoryTargets.includes(name)) {
      const check = await memoryCheck(
        {
          url: target.url,
          requests: workloadsFor(target)[0]?.requests ?? [],
          connections: 10,
          warmupRequests: settings.memoryWarmupRequests,
          amount: settings.memoryRequests,
        },
        { target: name, workload: 'get-product' },
        target.rss,
      );
      memory.push(check);
      console.error(`bench: ${name} memory: ${check.growthPercent.toFixed(1)}% after ${check.requests} requests`);
    }
    for (const workload of workloadsFor(target)) {
      for (const connections of settings.connections) {
        const row = await measure(
          {
            url: target.url,
            requests: workload.requests,
            connections,
            warmupSeconds: settings.warmupSeconds,
            seconds: settings.seconds,
          },
          { target: name, workload: workload.id, kind: workload.kind },
          target,
        );
        rows.push(row);
        console.error(
          `bench: ${name} ${workload.id} @${connections}: ${Math.round(row.reqPerSec)} req/s, p50 ${row.p50.toFixed(1)} ms, p99 ${row.p99.toFixed(1)} ms, errors ${row.errors}`,
        );
      }
    }
  } finally {
    await target.stop();
  }
}

const withRatio = withRatios(rows);
const report: Report = {
  generatedAt: new Date().toISOString(),
  machine: machine(),
  settings,
  rows: withRatio,
  memory,
  coldStarts,
  goals: checkGoals(withRatio, memory, coldStarts, settings),
  skipped,
  durationSeconds: (Date.now() - started) / 1000,
};
const text = markdown(report);
const out = path.join(ROOT, 'reports');
await mkdir(out, { recursive: true });
await writeFile(path.join(out, 'bench.json'), `${JSON.stringify(report, null, 2)}\n`);
await writeFile(path.join(out, 'bench.md'), text);
console.log(text);
console.error(`bench: wrote reports/bench.md and reports/bench.json in ${Math.round(report.durationSeconds)} s`);
if (failed || [...rows, ...memory].some((row) => row.errors > 0)) process.exitCode = 1;
