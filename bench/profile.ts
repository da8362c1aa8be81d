// `node bench/profile.ts [--seconds=20] [--workload=get-product] [--target=server-postgres]`: starts a server
// target (server-embedded by default) with --cpu-prof, runs one
// workload at 10 connections, stops it, and summarises where the CPU went: top self-time functions and self time
// by origin (server code, each npm package, Node internals, GC). Writes reports/profile.md and the raw
// .cpuprofile under reports/profile/ (open it in Chrome DevTools or speedscope).
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from './fixtures.ts';
import { measure } from './load.ts';
import { DEFAULT_DATABASE_URL, startTarget } from './targets.ts';
import { workloadsFor } from './workloads.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '20' },
    workload: { type: 'string', default: 'get-product' },
    target: { type: 'string', default: 'server-embedded' },
    top: { type: 'string', default: '25' },
  },
});

/** Where a frame comes from: `server/src/...`, an npm package, a Node internal, or a V8 pseudo-frame. */
function origin(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg?.[1]) return pkg[1];
  if (url.startsWith('node:')) return 'node internals';
  const file = url.replace(/^file:\/\//, '');
  if (file.startsWith(ROOT)) return path.relative(ROOT, file).split('/').slice(0, 3).join('/');
  return url;
}

function where(url: string, line: number): string {
  const file = url.replace(/^file:\/\//, '');
  const short = file.includes('node_modules/')
    ? file.slice(file.lastIndexOf('node_modules/') + 13)
    : path.relative(ROOT, file);
  return url ? `${short}:${line + 1}` : '';
}

function summarise(profile: CpuProfile, top: number): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMicros = new Map<number, number>();
  profile.samples.forEach((id, index) => {
    selfMicros.set(id, (selfMicros.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  const total = [...selfMicros.values()].reduce((sum, value) => sum + value, 0);
  const idle = [...selfMicros].filter(([id]) => byId.get(id)?.callFrame.functionName === '(idle)');
  const idleMicros = idle.reduce((sum, [, value]) => sum + value, 0);
  const busy = Math.max(1, total - idleMicros);

  const functions = new Map<string, { name: string; where: string; origin: string; micros: number }>();
  const origins = new Map<string, number>();
  for (const [id, micros] of selfMicros) {
    const frame = byId.get(id)?.callFrame;
    if (!frame || frame.functionName === '(idle)') continue;
    const name = frame.functionName || '(anonymous)';
    const key = `${name}@${frame.url}:${frame.lineNumber}`;
    const entry = functions.get(key) ?? {
      name,
      where: where(frame.url, frame.lineNumber),
      origin: origin(frame.url, name),
      micros: 0,
    };
    entry.micros += micros;
    functions.set(key, entry);
    origins.set(entry.origin, (origins.get(entry.origin) ?? 0) + micros);
  }
  const pct = (micros: number) => `${((micros / busy) * 100).toFixed(1)}%`;
  const lines = [
    `Busy ${(busy / 1e6).toFixed(1)} s of ${(total / 1e6).toFixed(1)} s sampled (idle ${((idleMicros / Math.max(1, total)) * 100).toFixed(0)}%). Shares are of busy time.`,
    '',
    '### Self time by origin',
    '',
    '| origin | self | share |',
    '|---|--:|--:|',
    ...[...origins]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 15)
      .map(([name, micros]) => `| ${name} | ${(micros / 1000).toFixed(0)} ms | ${pct(micros)} |`),
    '',
    `### Top ${top} functions by self time`,
    '',
    '| function | where | origin | self | share |',
    '|---|---|---|--:|--:|',
    ...[...functions.values()]
      .sort((a, b) => b.micros - a.micros)
      .slice(0, top)
      .map((f) => `| ${f.name} | ${f.where} | ${f.origin} | ${(f.micros / 1000).toFixed(0)} ms | ${pct(f.micros)} |`),
  ];
  return lines.join('\n');
}

const dir = path.join(ROOT, 'reports/profile');
await rm(dir, { recursive: true, force: true });
await mkdir(dir, { recursive: true });
const profiled = values.target;
if (profiled !== 'server-embedded' && profiled !== 'server-postgres') {
  throw new Error(`--target is server-embedded or server-postgres, not ${profiled}`);
}
const target = await startTarget(profiled, {
  // A list workload reads the 1,000-webhook fixture; the product workloads need none.
  webhookCounts: values.workload.startsWith('list-webhooks') ? [1000] : [],
  databaseUrl: process.env.BENCH_DATABASE_URL || process.env.DATABASE_URL || DEFAULT_DATABASE_URL,
  nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${dir}`],
});
let row: Awaited<ReturnType<typeof measure>>;
try {
  const workload = workloadsFor(target).find((w) => w.id === values.workload);
  if (!workload) throw new Error(`Unknown workload ${values.workload}`);
  row = await measure(
    {
      url: target.url,
      requests: workload.requests,
      connections: 10,
      warmupSeconds: 3,
      seconds: Number(values.seconds),
    },
    { target: target.name, workload: workload.id, kind: workload.kind },
    target,
  );
} finally {
  await target.stop();
}
const file = (await readdir(dir)).find((name) => name.endsWith('.cpuprofile'));
if (!file) throw new Error(`The server wrote no .cpuprofile in ${dir}`);
const profile = JSON.parse(await readFile(path.join(dir, file), 'utf8')) as CpuProfile;
const text = [
  `# CPU profile: ${profiled}, ${row.workload} at 10 connections`,
  '',
  `${Math.round(row.reqPerSec)} req/s, p50 ${row.p50.toFixed(1)} ms, p99 ${row.p99.toFixed(1)} ms, ${row.errors} errors while profiling (the profiler slows the server a little). Start-up and seeding are in the profile too.`,
  '',
  summarise(profile, Number(values.top)),
  '',
].join('\n');
await writeFile(path.join(ROOT, 'reports/profile.md'), text);
console.log(text);
console.error(`profile: wrote reports/profile.md and reports/profile/${file}`);
