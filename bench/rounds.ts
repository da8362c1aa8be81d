// Interleaved rounds: the targets of a workload kind are measured in turn, round after round, so that every
// target a ratio compares meets the same minutes of the machine (a shared 2-core VM drifts by a fifth between
// minutes); each row is then the median of its rounds.
import type { Measurement, Percentiles, Scheduling } from './load.ts';

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle] ?? 0;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? upper) + upper) / 2;
}

/** The targets in the order a round measures them: each round starts one further on, so none is always first. */
export function inTurn<T>(items: readonly T[], round: number): T[] {
  const start = items.length === 0 ? 0 : round % items.length;
  return [...items.slice(start), ...items.slice(0, start)];
}

/** One measurement of a round: a target and one of its workloads. */
export interface Turn<Target, Workload> {
  target: Target;
  workload: Workload;
}

/**
 * The measurements of one round of a workload kind, grouped by workload: each group (one list page, say) takes its
 * targets in turn, and the groups themselves come in turn. Rows that a ratio compares (the same page of each server,
 * or of the server at two commits) are then measured next to each other rather than a target's whole kind apart,
 * and no target or workload is always first.
 */
export function roundOrder<Target, Workload extends { id: string }>(
  entries: readonly { target: Target; workloads: readonly Workload[] }[],
  round: number,
): Turn<Target, Workload>[] {
  const ids = [...new Set(entries.flatMap(({ workloads }) => workloads.map(({ id }) => id)))];
  return inTurn(ids, round).flatMap((id) =>
    inTurn(
      entries.flatMap(({ target, workloads }) =>
        workloads.filter((workload) => workload.id === id).map((workload) => ({ target, workload })),
      ),
      round,
    ),
  );
}

/** The median of each status code's percentiles, for the codes every round has (none: no such split). */
function combineByStatus(rounds: readonly Measurement[]): Record<string, Percentiles> | undefined {
  const codes = Object.keys(rounds[0]?.byStatus ?? {});
  const combined = codes.flatMap((code) => {
    const perRound = rounds.flatMap((round) => round.byStatus?.[code] ?? []);
    if (perRound.length < rounds.length) return [];
    return [[code, { p50: median(perRound.map((p) => p.p50)), p99: median(perRound.map((p) => p.p99)) }] as const];
  });
  return combined.length > 0 ? Object.fromEntries(combined) : undefined;
}

/** The median of each scheduling share, when every round has them (none: not measured on this OS). */
function combineScheduling(rounds: readonly Measurement[]): Scheduling | undefined {
  const perRound = rounds.flatMap((round) => (round.scheduling ? [round.scheduling] : []));
  if (perRound.length === 0 || perRound.length < rounds.length) return undefined;
  const of = (field: keyof Scheduling) => median(perRound.map((shares) => shares[field]));
  return { mainOnCore: of('mainOnCore'), mainWaiting: of('mainWaiting'), loadWaiting: of('loadWaiting') };
}

/**
 * One row from the rounds of one target, workload and connection count: the median of each per-round figure
 * (req/s, p50, p99 and each status code's, CPU per request, bytes per response, scheduling shares), the sums of the counts
 * (requests, errors, status codes), and the memory read after the last round.
 */
export function combineRounds(rounds: readonly Measurement[]): Measurement {
  const [first] = rounds;
  const last = rounds.at(-1);
  if (!first || !last) throw new Error('combineRounds: no rounds');
  const statusCodes: Record<string, number> = {};
  for (const round of rounds) {
    for (const [code, count] of Object.entries(round.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + count;
  }
  const databaseCpu = rounds.flatMap((round) =>
    round.databaseCpuPerRequest === undefined ? [] : [round.databaseCpuPerRequest],
  );
  const byStatus = combineByStatus(rounds);
  const scheduling = combineScheduling(rounds);
  const of = (field: 'reqPerSec' | 'p50' | 'p99' | 'cpuPerRequest' | 'bytesPerResponse') =>
    median(rounds.map((round) => round[field]));
  return {
    target: first.target,
    workload: first.workload,
    kind: first.kind,
    connections: first.connections,
    requests: rounds.reduce((sum, round) => sum + round.requests, 0),
    reqPerSec: of('reqPerSec'),
    p50: of('p50'),
    p99: of('p99'),
    ...(byStatus ? { byStatus } : {}),
    errors: rounds.reduce((sum, round) => sum + round.errors, 0),
    statusCodes,
    bytesPerResponse: Math.round(of('bytesPerResponse')),
    rss: last.rss,
    cpuPerRequest: of('cpuPerRequest'),
    ...(databaseCpu.length === rounds.length ? { databaseCpuPerRequest: median(databaseCpu) } : {}),
    ...(scheduling ? { scheduling } : {}),
  };
}
