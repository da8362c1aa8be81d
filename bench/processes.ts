// Child processes of the bench: start one, wait until it says it listens, read its memory and CPU time, stop it.
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';

export interface Child {
  process: ChildProcess;
  /** Everything it wrote, for the error message when it fails to start. */
  output: string[];
  /** Milliseconds from spawn to its first HTTP response of any status (the cold start a user waits through). */
  coldStartMs: number;
}

/**
 * Resolves with an HTTP response to `GET url`; rejects when nothing listens yet, or when a proxy answers for a
 * server behind it that is not up yet (502–504).
 */
function answers(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent: false }, (response) => {
      response.resume();
      const status = response.statusCode ?? 0;
      if (status >= 502 && status <= 504) reject(new Error(`answered ${status}`));
      else resolve();
    });
    request.once('error', reject);
    request.setTimeout(5_000, () => request.destroy(new Error('no answer')));
  });
}

/**
 * Spawns `node <args>` (the Node running the bench) and resolves once it answers its first HTTP request at
 * `probeUrl` (any status: what counts is that a client is served), with the time that took from spawn.
 */
export async function startChild(
  args: string[],
  env: NodeJS.ProcessEnv,
  probeUrl: string,
  options: { timeoutMs?: number; cwd?: string } = {},
): Promise<Child> {
  const timeoutMs = options.timeoutMs ?? 60_000;
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  const output: string[] = [];
  const keep = (chunk: Buffer): void => {
    output.push(chunk.toString('utf8'));
    if (output.length > 200) output.splice(0, output.length - 200);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<never>((_, reject) => {
    child.once('error', reject);
    child.once('exit', (code) =>
      reject(new Error(`${args.join(' ')} exited (${code}) before it answered:\n${output.join('')}`)),
    );
  });
  exited.catch(() => {});
  const deadline = spawnedAt + timeoutMs;
  for (;;) {
    try {
      await Promise.race([answers(probeUrl), exited]);
      break;
    } catch (error) {
      if (child.exitCode !== null || child.signalCode !== null) throw error;
      if (performance.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`${args.join(' ')} did not answer within ${timeoutMs} ms:\n${output.join('')}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  return { process: child, output, coldStartMs: performance.now() - spawnedAt };
}

/** Stops a child with SIGTERM (SIGKILL after `graceMs`) and waits for its exit. */
export async function stopChild(child: Child, graceMs = 15_000): Promise<void> {
  const { process: proc } = child;
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  proc.kill('SIGTERM');
  const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces, so read after the last ')'). */
function statOf(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

function rssOf(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match?.[1] ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Linux's clock tick (USER_HZ), the unit of /proc's CPU times: 100 on every architecture Node runs on. */
const MICROS_PER_TICK = 10_000;

/** CPU time (user + system) a process has used, in microseconds; 0 once it is gone. */
/** CPU time in microseconds from fields of a process's stat, read once (after `statOf`'s cut: 11 utime, 12 stime). */
function cpuIn(pid: number, fields: readonly number[]): number {
  const stat = statOf(pid);
  return stat ? sum(fields.map((field) => Number(stat[field]))) * MICROS_PER_TICK : 0;
}

const cpuOf = (pid: number) => cpuIn(pid, [11, 12]);

/** `cpuOf`, plus the CPU of the process's children that have exited and been waited for (13 cutime, 14 cstime). */
const cpuWithExitedChildren = (pid: number) => cpuIn(pid, [11, 12, 13, 14]);

function processIds(): number[] {
  try {
    return readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map(Number);
  } catch {
    return [];
  }
}

/** A process and its descendants (the mock is a proxy with Prism as its child). */
function treeOf(rootPid: number): number[] {
  const children = new Map<number, number[]>();
  for (const pid of processIds()) {
    const field = statOf(pid)?.[1];
    if (field === undefined) continue;
    const parent = Number(field);
    children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  const tree: number[] = [];
  const queue = [rootPid];
  while (queue.length > 0) {
    const pid = queue.pop() as number;
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** Nanoseconds a thread has spent on a core, and runnable but waiting for one, since it started. */
export interface ThreadTimes {
  running: number;
  waiting: number;
}

/**
 * The scheduling so far of a process's main thread, from Linux's schedstat (`/proc/<pid>/task/<pid>/schedstat`).
 * Undefined where the kernel does not keep it (another OS, or schedstats off).
 */
export function threadTimes(pid: number): ThreadTimes | undefined {
  try {
    const [running, waiting] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').trim().split(' ').map(Number);
    return Number.isFinite(running) && Number.isFinite(waiting)
      ? { running: running as number, waiting: waiting as number }
      : undefined;
  } catch {
    return undefined;
  }
}

/** Resident memory in bytes of a process and its descendants. Linux only (/proc); elsewhere it is 0. */
export function treeRss(rootPid: number): number {
  return sum(treeOf(rootPid).map(rssOf));
}

/** CPU time in microseconds used so far by a process and its descendants. Linux only (/proc); elsewhere 0. */
export function treeCpu(rootPid: number): number {
  return sum(treeOf(rootPid).map(cpuOf));
}

/**
 * CPU time in microseconds used so far by every PostgreSQL process of this machine (its backends, WAL writer,
 * checkpointer, autovacuum): what a PostgreSQL target makes the database spend. 0 when PostgreSQL runs elsewhere.
 * A backend that ends (a connection closed) takes its CPU out of the running processes' sum; the postmaster, which
 * waits for it, counts it among its exited children, so that count is added and the total never goes back.
 */
export function postgresCpu(): number {
  return sum(
    processIds()
      .filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
        } catch {
          return false;
        }
      })
      .map(cpuWithExitedChildren),
  );
}

/** The machine's CPU time so far, all cores, in ticks: `busy` (iowait counts: a sync still running) and in all. */
function machineTicks(): { busy: number; total: number } | undefined {
  try {
    const [, ...fields] = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/);
    // user nice system idle iowait irq softirq steal (guest time is already in user).
    const ticks = fields.slice(0, 8).map(Number);
    const total = sum(ticks);
    return { busy: total - (ticks[3] ?? 0), total };
  } catch {
    return undefined;
  }
}

/**
 * Waits until the whole machine has been nearly idle (under `busyBelow` of its cores) for `windowMs`, for at most
 * `timeoutMs`, and says how long it waited: what a target goes on doing after its window (Prism answering its
 * backlog, a WAL checkpoint and its sync, PostgreSQL's writers) must not land in the next target's window. On a
 * machine that never quiets down it gives up after the timeout. Linux only (/proc); elsewhere it returns at once.
 */
export async function settled({ busyBelow = 0.1, windowMs = 250, timeoutMs = 10_000 } = {}): Promise<number> {
  const startedAt = performance.now();
  let before = machineTicks();
  while (before && performance.now() - startedAt < timeoutMs) {
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const after = machineTicks();
    if (!after) break;
    const busy = (after.busy - before.busy) / Math.max(1, after.total - before.total);
    if (busy < busyBelow) break;
    before = after;
  }
  return performance.now() - startedAt;
}
