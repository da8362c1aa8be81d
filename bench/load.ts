// One measurement: autocannon at a fixed number of connections, a warm-up, then the measured window.
import autocannon, { type Request, type Result } from 'autocannon';
import { type ThreadTimes, threadTimes } from './processes.ts';

export interface Measurement {
  target: string;
  workload: string;
  kind: string;
  connections: number;
  /** Requests completed in the measured window. */
  requests: number;
  reqPerSec: number;
  /** Latency in milliseconds (from every response of the window, at microsecond resolution). */
  p50: number;
  p99: number;
  /**
   * The same percentiles per status code, when the window's responses had more than one (`mixed`: 200 for its
   * GETs, 201 for its creates): which of them the 99th percentile falls among.
   */
  byStatus?: Record<string, Percentiles>;
  /**
   * Non-2xx responses plus connection errors and timeouts, warm-up included (a valid run has none); a window in
   * which no response completed counts one error per connection.
   */
  errors: number;
  statusCodes: Record<string, number>;
  /** Mean response size in bytes (headers included), to show the targets answer the same amount. */
  bytesPerResponse: number;
  /** Resident memory of the target right after the window, in bytes. */
  rss: number;
  /**
   * CPU time the target (with its children) used per request of the window, in microseconds: what a request
   * costs, which unlike req/s does not depend on how much of the machine the load generator takes.
   */
  cpuPerRequest: number;
  /** The same for the database the target uses, when it is measured (server-postgres on a local PostgreSQL). */
  databaseCpuPerRequest?: number;
  /**
   * How the window's wall time went for two threads, as shares of it (Linux only): the target's main thread (a
   * server's request thread) on a core and runnable but waiting for one, and the load generator's thread waiting
   * for one. A latency measured while either waits includes the wait.
   */
  scheduling?: Scheduling;
}

export interface Scheduling {
  mainOnCore: number;
  mainWaiting: number;
  loadWaiting: number;
}

/** Latency percentiles in milliseconds. */
export interface Percentiles {
  p50: number;
  p99: number;
}

/** What `measure` reads of the target: its memory after the window, and CPU time before and after it. */
export interface Probes {
  rss(): number;
  cpu(): number;
  databaseCpu?: (() => number) | undefined;
  /** The scheduling of the target's main thread so far (undefined where the OS does not say). */
  mainThread?: () => ThreadTimes | undefined;
}

export interface LoadOptions {
  url: string;
  requests: Request[];
  connections: number;
  warmupSeconds: number;
  seconds: number;
}

function failures(result: Result): number {
  return result.non2xx + result.errors + result.timeouts;
}

function statusCodes(...results: Result[]): Record<string, number> {
  const codes: Record<string, number> = {};
  for (const result of results) {
    for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) {
      codes[code] = (codes[code] ?? 0) + Number(count);
    }
  }
  return codes;
}

interface Fired {
  result: Result;
  /** Response times in ms, unrounded (autocannon's own histogram keeps whole milliseconds), by status code. */
  byStatus: Map<number, number[]>;
}

async function fire(
  url: string,
  requests: Request[],
  connections: number,
  run: { duration?: number; amount?: number },
): Promise<Fired> {
  const byStatus = new Map<number, number[]>();
  const instance = autocannon({ url, connections, pipelining: 1, timeout: 10, requests, ...run });
  instance.on('response', (_client: unknown, status: number, _bytes: number, responseTime: number) => {
    const ofStatus = byStatus.get(status);
    if (ofStatus) ofStatus.push(responseTime);
    else byStatus.set(status, [responseTime]);
  });
  return { result: await instance, byStatus };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

function percentiles(latencies: number[]): Percentiles {
  const sorted = latencies.sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}

/** Percentiles per status code, or nothing when every response had the same one. */
function percentilesByStatus(byStatus: Map<number, number[]>): Record<string, Percentiles> | undefined {
  if (byStatus.size < 2) return undefined;
  return Object.fromEntries([...byStatus].map(([status, latencies]) => [String(status), percentiles(latencies)]));
}

/** CPU microseconds per request over the window, from a CPU reading before and after it (none: not measured). */
function perRequest(before: number | undefined, after: number | undefined, requests: number): number | undefined {
  if (before === undefined || after === undefined) return undefined;
  return requests > 0 ? (after - before) / requests : 0;
}

/** The shares of `wallNs` the two threads spent on a core or waiting, from readings before and after a window. */
export function schedulingOver(
  wallNs: number,
  main: { before: ThreadTimes | undefined; after: ThreadTimes | undefined },
  load: { before: ThreadTimes | undefined; after: ThreadTimes | undefined },
): Scheduling | undefined {
  if (!main.before || !main.after || !load.before || !load.after || wallNs <= 0) return undefined;
  return {
    mainOnCore: (main.after.running - main.before.running) / wallNs,
    mainWaiting: (main.after.waiting - main.before.waiting) / wallNs,
    loadWaiting: (load.after.waiting - load.before.waiting) / wallNs,
  };
}

/** Warm-up then the measured window; CPU time is read around the window, memory once it ends. */
export async function measure(
  options: LoadOptions,
  labels: { target: string; workload: string; kind: string },
  probes: Probes,
): Promise<Measurement> {
  const { url, requests, connections } = options;
  // No warm-up when it is 0 (a quick run's later rounds): autocannon runs a second at least, whatever its duration.
  const warmup =
    options.warmupSeconds > 0
      ? (await fire(url, requests, connections, { duration: options.warmupSeconds })).result
      : undefined;
  const cpuBefore = probes.cpu();
  const databaseBefore = probes.databaseCpu?.();
  const startedAt = performance.now();
  const mainBefore = probes.mainThread?.();
  const loadBefore = threadTimes(process.pid);
  const { result, byStatus } = await fire(url, requests, connections, { duration: options.seconds });
  const scheduling = schedulingOver(
    (performance.now() - startedAt) * 1e6,
    { before: mainBefore, after: probes.mainThread?.() },
    { before: loadBefore, after: threadTimes(process.pid) },
  );
  const cpuAfter = probes.cpu();
  const databaseAfter = probes.databaseCpu?.();
  const total = result.requests.total;
  const databaseCpuPerRequest = perRequest(databaseBefore, databaseAfter, total);
  const byStatusPercentiles = percentilesByStatus(byStatus);
  return {
    ...labels,
    connections,
    requests: total,
    reqPerSec: total / result.duration,
    ...percentiles([...byStatus.values()].flat()),
    ...(byStatusPercentiles ? { byStatus: byStatusPercentiles } : {}),
    errors: (warmup ? failures(warmup) : 0) + failures(result) + (total === 0 ? connections : 0),
    statusCodes: statusCodes(...(warmup ? [warmup] : []), result),
    bytesPerResponse: total > 0 ? Math.round((result.throughput.total ?? 0) / total) : 0,
    rss: probes.rss(),
    cpuPerRequest: perRequest(cpuBefore, cpuAfter, total) ?? 0,
    ...(databaseCpuPerRequest === undefined ? {} : { databaseCpuPerRequest }),
    ...(scheduling ? { scheduling } : {}),
  };
}

export interface MemoryCheck {
  target: string;
  workload: string;
  requests: number;
  errors: number;
  rssAfterWarmup: number;
  rssAfterRequests: number;
  growthPercent: number;
  /** RSS after each fifth of the requests. */
  samples: { requests: number; rss: number }[];
}

/**
 * RSS after a warm-up of `warmupRequests` requests (V8 sizes its heap to the working set during the first tens of
 * thousands, so a shorter warm-up measures heap sizing, not growth), then after exactly `amount` more requests,
 * sent in five equal steps so that `samples` shows whether the growth levels off or keeps climbing (a leak).
 */
export async function memoryCheck(
  options: Omit<LoadOptions, 'seconds' | 'warmupSeconds'> & { amount: number; warmupRequests: number },
  labels: { target: string; workload: string },
  rss: () => number,
): Promise<MemoryCheck> {
  const { url, requests, connections } = options;
  const warmup = (await fire(url, requests, connections, { amount: options.warmupRequests })).result;
  const before = rss();
  const steps = 5;
  const samples: { requests: number; rss: number }[] = [];
  let sent = 0;
  let errors = failures(warmup);
  for (let step = 1; step <= steps; step++) {
    const amount = Math.round((options.amount * step) / steps) - Math.round((options.amount * (step - 1)) / steps);
    const { result } = await fire(url, requests, connections, { amount });
    sent += result.requests.total;
    errors += failures(result);
    samples.push({ requests: sent, rss: rss() });
  }
  const after = samples.at(-1)?.rss ?? before;
  return {
    ...labels,
    requests: sent,
    errors,
    rssAfterWarmup: before,
    rssAfterRequests: after,
    growthPercent: before > 0 ? ((after - before) / before) * 100 : 0,
    samples,
  };
}
