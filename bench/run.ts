// `npm run bench [-- --quick] [-- --targets=a,b] [-- --workloads=a,b] [-- --rounds=N] [-- --baseline-ref=<git ref>]`:
// starts every target, runs the workloads at each connection count in interleaved rounds (rounds.ts), stops them,
// writes reports/bench.json and reports/bench.md, and prints the Markdown.
// Exit code 1 when the run is not valid (a target failed to start, or any non-2xx/error response).
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from './fixtures.ts';
import { type Measurement, type MemoryCheck, measure, memoryCheck } from './load.ts';
import { settled } from './processes.ts';
import { checkGoals, machine, markdown, type Report, type Settings, withRatios } from './report.ts';
import { combineRounds, roundOrder } from './rounds.ts';
import {
  DEFAULT_DATABASE_URL,
  postgresReachable,
  startTarget,
  TARGET_NAMES,
  type Target,
  type TargetName,
} from './targets.ts';
import { WORKLOAD_KINDS, type Workload, type WorkloadKind, workloadsFor } from './workloads.ts';

const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    targets: { type: 'string' },
    workloads: { type: 'string' },
    rounds: { type: 'string' },
    'baseline-ref': { type: 'string' },
  },
});

/** The items a comma-separated option names (every one of `known` without it), each checked to be one of them. */
function chosen<Name extends string>(option: string | undefined, known: readonly Name[], what: string): Name[] {
  if (option === undefined) return [...known];
  return option.split(',').map((item) => {
    const name = known.find((candidate) => candidate === item);
    if (name === undefined) throw new Error(`Unknown ${what} ${item}; ${what}s: ${known.join(', ')}`);
    return name;
  });
}

const quick = values.quick;
const settings: Settings = quick
  ? {
      quick,
      connections: [10, 50],
      rounds: 2,
      warmupSeconds: 0.25,
      roundWarmupSeconds: 0,
      seconds: 0.5,
      webhookCounts: [100, 1_000],
      memoryWarmupRequests: 500,
      memoryRequests: 1_000,
      memoryTargets: ['server-embedded'],
    }
  : {
      quick,
      connections: [10, 50],
      rounds: 3,
      warmupSeconds: 3,
      roundWarmupSeconds: 1,
      seconds: 3,
      webhookCounts: [1_000, 100_000],
      memoryWarmupRequests: 20_000,
      memoryRequests: 100_000,
      memoryTargets: ['server-embedded'],
    };
// A subset of the workloads (an A/B of one path) measures no memory phase: that phase is the full run's.
const kinds = chosen(values.workloads, WORKLOAD_KINDS, 'workload');
if (values.workloads) settings.memoryTargets = [];
if (values.rounds) {
  settings.rounds = Number(values.rounds);
  if (!Number.isInteger(settings.rounds) || settings.rounds < 1) throw new Error('--rounds takes a whole number ≥ 1');
}
const databaseUrl = process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
const names: TargetName[] = chosen(values.targets, TARGET_NAMES, 'target');
// The same servers at another commit, measured in the same rounds as these: "before and after" in one run.
const baselineRef = values['baseline-ref'];
if (baselineRef) {
  for (const server of ['server-embedded', 'server-postgres'] as const) {
    const at = names.indexOf(server);
    if (at >= 0) names.splice(at + 1, 0, `${server}@${baselineRef}`);
  }
}

const started = Date.now();
const rows: Measurement[] = [];
const memory: MemoryCheck[] = [];
const coldStarts: Report['coldStarts'] = [];
const skipped: Report['skipped'] = [];
let failed = false;
const since = () => `${Math.round((Date.now() - started) / 1000)} s`;

/** A started target and its workloads, built once for all the rounds. */
interface Running {
  target: Target;
  workloads: Workload[];
}

/** Starts a target (none: it was skipped, and why is recorded) and runs its memory phase when it has one. */
async function startedTarget(name: TargetName): Promise<Running | undefined> {
  if (name.startsWith('server-postgres')) {
    const unreachable = await postgresReachable(databaseUrl);
    if (unreachable) {
      skipped.push({ target: name, reason: unreachable });
      console.error(`bench: ${name} skipped: ${unreachable}`);
      return undefined;
    }
  }
  console.error(`bench: starting ${name} (${since()})`);
  let target: Target;
  try {
    target = await startTarget(name, { webhookCounts: settings.webhookCounts, databaseUrl });
  } catch (error) {
    failed = true;
    skipped.push({ target: name, reason: `did not start: ${(error as Error).message.split('\n')[0]}` });
    console.error(`bench: ${name} did not start:`, error);
    return undefined;
  }
  coldStarts.push({ target: name, ms: target.coldStartMs });
  console.error(`bench: ${name} answered its first request ${Math.round(target.coldStartMs)} ms after spawn`);
  const workloads = workloadsFor(target);
  if (settings.memoryTargets.includes(name)) {
    const check = await memoryCheck(
      {
        url: target.url,
        requests: workloads[0]?.requests ?? [],
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
  return { target, workloads };
}

/**
 * The rows of one workload kind at one connection count: every target's workloads of that kind, measured for
 * `settings.rounds` rounds, each round workload by workload with the targets in turn (`roundOrder`; the full
 * warm-up before a workload's first round, a short one before the others), each row the median of its rounds
 * (rounds.ts). Each measurement starts once the machine has settled from the one before (`settled`).
 */
async function measuredInRounds(running: Running[], kind: WorkloadKind, connections: number): Promise<Measurement[]> {
  const ofKind = running.map(({ target, workloads }) => ({
    target,
    workloads: workloads.filter((workload) => workload.kind === kind),
  }));
  const byRow = new Map<string, Measurement[]>();
  for (let round = 0; round < settings.rounds; round++) {
    for (const { target, workload } of roundOrder(ofKind, round)) {
      await settled();
      const measured = await measure(
        {
          url: target.url,
          requests: workload.requests,
          connections,
          warmupSeconds: round === 0 ? settings.warmupSeconds : settings.roundWarmupSeconds,
          seconds: settings.seconds,
        },
        { target: target.name, workload: workload.id, kind },
        target,
      );
      const key = `${target.name}\n${workload.id}`;
      byRow.set(key, [...(byRow.get(key) ?? []), measured]);
    }
  }
  return [...byRow.values()].map((rounds) => {
    const row = combineRounds(rounds);
    console.error(
      `bench: ${row.target} ${row.workload} @${connections}: ${Math.round(row.reqPerSec)} req/s, p50 ${row.p50.toFixed(1)} ms, p99 ${row.p99.toFixed(1)} ms, errors ${row.errors} (${since()})`,
    );
    return row;
  });
}

// Every target is started first and stopped at the end, so that the rounds can take them in turn.
const running: Running[] = [];
try {
  for (const name of names) {
    const entry = await startedTarget(name);
    if (entry) running.push(entry);
  }
  for (const kind of kinds) {
    for (const connections of settings.connections) rows.push(...(await measuredInRounds(running, kind, connections)));
  }
} finally {
  await Promise.all(running.map(({ target }) => target.stop()));
}
// The table lists each target's rows together, in the order of its workloads, then of the connection counts.
const workloadIds = new Map(running.map(({ target, workloads }) => [target.name, workloads.map(({ id }) => id)]));
const position = (row: Measurement) => [
  names.indexOf(row.target as TargetName),
  workloadIds.get(row.target as TargetName)?.indexOf(row.workload) ?? -1,
  row.connections,
];
rows.sort((a, b) => {
  const [left, right] = [position(a), position(b)];
  const differs = left.findIndex((value, index) => value !== right[index]);
  return differs === -1 ? 0 : (left[differs] ?? 0) - (right[differs] ?? 0);
});

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
