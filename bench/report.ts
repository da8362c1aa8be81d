// The report: ratios to the three references, the goals of the issue checked against one run, Markdown + JSON.
import os from 'node:os';
import type { Measurement, MemoryCheck } from './load.ts';

export interface Row extends Measurement {
  vsRaw: number | null;
  vsExpress: number | null;
  vsPrism: number | null;
}

export interface Goal {
  goal: string;
  holds: boolean | null;
  detail: string;
}

export interface Settings {
  quick: boolean;
  connections: number[];
  /** Interleaved rounds per row (rounds.ts): a row is the median of its rounds. */
  rounds: number;
  /** Warm-up before a workload's first round, and before each of its later rounds. */
  warmupSeconds: number;
  roundWarmupSeconds: number;
  /** The measured window of each round. */
  seconds: number;
  webhookCounts: number[];
  /** Requests sent before the first RSS reading of the memory phase. */
  memoryWarmupRequests: number;
  memoryRequests: number;
  /** Targets whose RSS growth is measured (a dedicated phase of `memoryRequests` GET requests). */
  memoryTargets: string[];
}

export interface Report {
  generatedAt: string;
  machine: { cores: number; cpu: string; node: string; platform: string; loadAverage: number[] };
  settings: Settings;
  rows: Row[];
  memory: MemoryCheck[];
  /** Milliseconds from spawn to the first answered request, per target. */
  coldStarts: { target: string; ms: number }[];
  goals: Goal[];
  skipped: { target: string; workload?: string; reason: string }[];
  durationSeconds: number;
}

/** Baselines and Prism have one list row; every list row of a server compares to it. */
function reference(rows: Measurement[], target: string, row: Measurement): Measurement | undefined {
  return rows.find(
    (other) =>
      other.target === target &&
      other.connections === row.connections &&
      (row.kind === 'list-webhooks' ? other.kind === row.kind : other.workload === row.workload),
  );
}

function ratio(row: Measurement, ref: Measurement | undefined): number | null {
  return ref && ref.reqPerSec > 0 ? row.reqPerSec / ref.reqPerSec : null;
}

export function withRatios(rows: Measurement[]): Row[] {
  return rows.map((row) => ({
    ...row,
    vsRaw: ratio(row, reference(rows, 'baseline-raw', row)),
    vsExpress: ratio(row, reference(rows, 'baseline-express', row)),
    vsPrism: ratio(row, reference(rows, 'prism', row)),
  }));
}

/** The servers the goals are about (a `server-…@<ref>` row is only the "before" of a comparison). */
const isServer = (target: string): boolean => target === 'server-embedded' || target === 'server-postgres';

const x = (value: number | null | undefined): string => (value == null ? '–' : `${value.toFixed(2)}×`);
const mib = (bytes: number): string => (bytes > 0 ? `${(bytes / 1024 / 1024).toFixed(0)} MiB` : '–');
const ms = (value: number): string => `${value < 10 ? value.toFixed(1) : value.toFixed(0)} ms`;
/** A row's percentiles by status code, when it has them (`mixed`: its GETs' 200s and its creates' 201s). */
const statusSplit = (r: Row): string =>
  r.byStatus
    ? ` (${Object.entries(r.byStatus)
        .map(([status, p]) => `${status}: p50 ${ms(p.p50)}, p99 ${ms(p.p99)}`)
        .join('; ')})`
    : '';

const share = (value: number) => `${Math.round(value * 100)}%`;

/** Who waited for a core during the row's windows: the target's main thread and the load generator. */
const schedulingOf = (r: Row): string =>
  r.scheduling
    ? `; main thread on a core ${share(r.scheduling.mainOnCore)}, waiting for one ${share(r.scheduling.mainWaiting)}; load generator waiting ${share(r.scheduling.loadWaiting)}`
    : '';

function find(rows: Row[], target: string, workload: string, connections: number): Row | undefined {
  return rows.find((r) => r.target === target && r.workload === workload && r.connections === connections);
}

/** A before/after comparison within one run tolerates this much noise (medians of interleaved rounds). */
const SAME_SPEED = 0.9;

/** The goals of the issue, each checked at every connection count it applies to. */
export function checkGoals(
  rows: Row[],
  memory: MemoryCheck[],
  coldStarts: Report['coldStarts'],
  settings: Settings,
): Goal[] {
  const goals: Goal[] = [];
  const unknown = (goal: string, why: string) => goals.push({ goal, holds: null, detail: why });
  const all = (goal: string, checks: { ok: boolean; detail: string }[]) => {
    if (checks.length === 0) unknown(goal, 'not measured in this run');
    else goals.push({ goal, holds: checks.every((c) => c.ok), detail: checks.map((c) => c.detail).join('; ') });
  };

  for (const [workload, expressFloor, prismFloor] of [
    ['get-product', 0.3, 5],
    ['create-product', 0.2, 3],
  ] as const) {
    for (const [ref, field, min] of [
      ['baseline-express', 'vsExpress', expressFloor],
      ['prism', 'vsPrism', prismFloor],
    ] as const) {
      const checks = settings.connections.flatMap((c) => {
        const row = find(rows, 'server-embedded', workload, c);
        const value = row?.[field];
        return value == null ? [] : [{ ok: value >= min, detail: `${c} conn: ${x(value)}` }];
      });
      all(`server-embedded ${workload} ≥ ${min} × ${ref}`, checks);
    }
  }

  const pgChecks = rows
    .filter((r) => r.target === 'server-embedded')
    .flatMap((embedded) => {
      const postgres = find(rows, 'server-postgres', embedded.workload, embedded.connections);
      if (!postgres || embedded.reqPerSec === 0) return [];
      const value = postgres.reqPerSec / embedded.reqPerSec;
      return [{ ok: value >= 0.6, detail: `${embedded.workload} @${embedded.connections}: ${x(value)}` }];
    });
  all('server-postgres ≥ 0.6 × server-embedded (every workload)', pgChecks);

  const top = Math.max(...settings.connections);
  const tail = (r: Row) => (r.p99 / Math.max(r.p50, 0.001)).toFixed(1) + statusSplit(r) + schedulingOf(r);
  const tailChecks = rows
    .filter((r) => isServer(r.target) && r.connections === top)
    .map((r) => ({ ok: r.p99 <= 3 * r.p50, detail: `${r.target} ${r.workload}: p99/p50 ${tail(r)}` }));
  // The baselines' own tails on the same machine in the same run, beside the goal and not judged by it: what the
  // load generator and the two cores give even a server that does almost nothing.
  const baselineTails = rows
    .filter((r) => r.target.startsWith('baseline-') && r.connections === top)
    .map((r) => ({ ok: true, detail: `(not judged) ${r.target} ${r.workload}: p99/p50 ${tail(r)}` }));
  all(
    `p99 ≤ 3 × p50 at ${top} connections (every server workload)`,
    tailChecks.length > 0 ? [...tailChecks, ...baselineTails] : [],
  );

  const small = Math.min(...settings.webhookCounts);
  const large = Math.max(...settings.webhookCounts);
  const scaleChecks = rows
    .filter((r) => isServer(r.target) && r.workload.startsWith(`list-webhooks ${large} `))
    .flatMap((r) => {
      const where = r.workload.split(' ')[2];
      const base = find(rows, r.target, `list-webhooks ${small} ${where}`, r.connections);
      if (!base) return [];
      return [
        {
          ok: r.p99 <= 2 * base.p99,
          detail: `${r.target} ${where} page @${r.connections}: ${ms(r.p99)} vs ${ms(base.p99)} (${x(r.p99 / Math.max(base.p99, 0.001))})`,
        },
      ];
    });
  all(`list at ${large} webhooks: p99 ≤ 2 × p99 at ${small} (first and last page)`, scaleChecks);

  all(
    `RSS growth after ${settings.memoryRequests} requests < 15%`,
    memory.map((m) => ({ ok: m.growthPercent < 15, detail: `${m.target}: ${m.growthPercent.toFixed(1)}%` })),
  );

  const coldStart = (target: string) => coldStarts.find((c) => c.target === target)?.ms;
  const server = coldStart('server-embedded');
  const prism = coldStart('prism');
  all(
    'cold start: server-embedded answers its first request no later than prism',
    server === undefined || prism === undefined
      ? []
      : [{ ok: server <= prism, detail: `${Math.round(server)} ms vs ${Math.round(prism)} ms` }],
  );

  for (const before of new Set(rows.map((r) => r.target).filter((t) => t.includes('@')))) {
    const server = before.slice(0, before.indexOf('@'));
    all(
      `no request path slower than ${before} (≥ ${SAME_SPEED} ×, the noise of one run)`,
      rows
        .filter((r) => r.target === server)
        .flatMap((after) => {
          const was = find(rows, before, after.workload, after.connections);
          if (!was || was.reqPerSec === 0) return [];
          const value = after.reqPerSec / was.reqPerSec;
          return [{ ok: value >= SAME_SPEED, detail: `${after.workload} @${after.connections}: ${x(value)}` }];
        }),
    );
  }

  const failed = [...rows, ...memory].filter((r) => r.errors > 0);
  goals.push({
    goal: 'valid run: zero non-2xx responses and errors',
    holds: failed.length === 0,
    detail:
      failed.length === 0
        ? 'none'
        : failed
            .map((r) => `${r.target} ${r.workload}${'connections' in r ? ` @${r.connections}` : ''}: ${r.errors}`)
            .join('; '),
  });
  return goals;
}

export function machine(): Report['machine'] {
  return {
    cores: os.availableParallelism(),
    cpu: os.cpus()[0]?.model ?? 'unknown',
    node: process.version,
    platform: `${os.platform()} ${os.release()}`,
    loadAverage: os.loadavg().map((value) => Number(value.toFixed(2))),
  };
}

/** CPU µs per request: the target's own, and its database's when measured (`412 µs + 199 db`). */
function cpu(row: Measurement): string {
  const own = `${Math.round(row.cpuPerRequest)} µs`;
  return row.databaseCpuPerRequest === undefined ? own : `${own} + ${Math.round(row.databaseCpuPerRequest)} db`;
}

export function markdown(report: Report): string {
  const { machine: m, settings: s } = report;
  const lines = [
    `# Benchmark${s.quick ? ' (quick run: too short to judge speed)' : ''}`,
    '',
    `- Machine: ${m.cores} cores (${m.cpu}), ${m.platform}; load average at the end ${m.loadAverage.join(' / ')}`,
    `- Node ${m.node}; autocannon 9, ${s.connections.join(' and ')} connections; each row is the median of ${s.rounds} rounds of ${s.seconds} s, each round measuring workload by workload with the targets in turn (${s.warmupSeconds} s warm-up before a workload's first round, ${s.roundWarmupSeconds} s before the others), each once the machine has settled from the one before`,
    `- ${report.generatedAt}, ${Math.round(report.durationSeconds)} s in all; list fixtures: ${s.webhookCounts.join(' and ')} webhooks, pages of 50`,
    "- Servers run as `npm start` runs them by default (its Node flags, no `NODE_ENV`, no `LOG_LEVEL`: see the README's configuration table for what that means for logging and response validation); `prism` is raw `prism mock openapi.yaml`, `mock` is `npm run mock`",
    '',
    '| target | workload | conn | req/s | p50 | p99 | errors | RSS | CPU/req | ×raw | ×express | ×prism | bytes/resp |',
    '|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
    ...report.rows.map((r) =>
      [
        '',
        r.target,
        r.workload,
        r.connections,
        Math.round(r.reqPerSec),
        ms(r.p50),
        ms(r.p99),
        r.errors,
        mib(r.rss),
        cpu(r),
        x(r.vsRaw),
        x(r.vsExpress),
        x(r.vsPrism),
        r.bytesPerResponse,
        '',
      ]
        .join(' | ')
        .trim(),
    ),
    '',
    '## Memory',
    '',
    '| target | workload | requests | RSS after warm-up | RSS after | growth | RSS at each fifth | errors |',
    '|---|---|--:|--:|--:|--:|---|--:|',
    ...report.memory.map(
      (r) =>
        `| ${r.target} | ${r.workload} | ${r.requests} | ${mib(r.rssAfterWarmup)} | ${mib(r.rssAfterRequests)} | ${r.growthPercent.toFixed(1)}% | ${r.samples.map((s) => mib(s.rss)).join(' → ')} | ${r.errors} |`,
    ),
    '',
    '## Cold start',
    '',
    '| target | first request answered after spawn |',
    '|---|--:|',
    ...report.coldStarts.map((c) => `| ${c.target} | ${ms(c.ms)} |`),
    '',
    '## Goals',
    '',
    '| goal | holds | measured |',
    '|---|---|---|',
    ...report.goals.map(
      (g) => `| ${g.goal} | ${g.holds === null ? 'n/a' : g.holds ? 'yes' : '**no**'} | ${g.detail} |`,
    ),
  ];
  if (report.skipped.length > 0) {
    lines.push('', '## Not measured', '');
    for (const skip of report.skipped)
      lines.push(`- ${skip.target}${skip.workload ? ` ${skip.workload}` : ''}: ${skip.reason}`);
  }
  return `${lines.join('\n')}\n`;
}
