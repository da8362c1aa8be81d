// npm run contract:diff -- --base <git ref>      openapi.yaml at <ref> against the working copy
// npm run contract:diff -- --base <ref> --after some/openapi.yaml   the same for another file in a git work tree
// npm run contract:diff -- --before a.yaml [--after b.yaml]
// Lists every change (breaking ones first) and exits 1 when a breaking change lands without a new major
// in info.version; 2 on a usage error (unknown option, a ref this clone does not have, an unreadable file).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';
import { compareContracts, formatComparison } from './compare-contracts.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CONTRACT = 'openapi.yaml';

class UsageError extends Error {}

/** `file` as committed at `ref` in the repository holding it, or undefined when that commit lacks it. */
function committedAt(ref: string, file: string): string | undefined {
  const cwd = path.dirname(file);
  const commit = spawnSync('git', ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], { cwd });
  if (commit.status !== 0) {
    throw new UsageError(
      `--base ${ref}: no such commit in this clone (a shallow clone lacks history: \`git fetch --deepen=1\`, or fetch the ref)`,
    );
  }
  const shown = spawnSync('git', ['show', `${ref}:./${path.basename(file)}`], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  return shown.status === 0 ? shown.stdout : undefined;
}

function parseContract(text: string, label: string): unknown {
  try {
    return parse(text);
  } catch (error) {
    throw new UsageError(`${label} is not valid YAML: ${(error as Error).message.split('\n')[0]}`);
  }
}

function readContract(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(path.resolve(file), 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  return parseContract(text, file);
}

function main(): number {
  const { values } = parseArgs({
    options: { base: { type: 'string' }, before: { type: 'string' }, after: { type: 'string' } },
    strict: true,
  });
  if ((values.base === undefined) === (values.before === undefined)) {
    throw new UsageError('give one of --base <git ref> or --before <file> (and optionally --after <file>)');
  }
  const afterFile = path.resolve(values.after ?? path.join(ROOT, CONTRACT));
  const after = readContract(afterFile);
  let before: unknown;
  let beforeLabel: string;
  if (values.base !== undefined) {
    const text = committedAt(values.base, afterFile);
    if (text === undefined) {
      process.stdout.write(`${CONTRACT} does not exist at ${values.base}: nothing to compare.\n`);
      return 0;
    }
    before = parseContract(text, `${CONTRACT} at ${values.base}`);
    beforeLabel = `${CONTRACT} at ${values.base}`;
  } else {
    before = readContract(values.before as string);
    beforeLabel = values.before as string;
  }
  const comparison = compareContracts(before, after);
  const afterLabel = values.after ?? `${CONTRACT} (working copy)`;
  process.stdout.write(formatComparison(comparison, { before: beforeLabel, after: afterLabel }));
  return comparison.problem ? 1 : 0;
}

try {
  process.exitCode = main();
} catch (error) {
  if (!(error instanceof UsageError) && !(error instanceof TypeError && 'code' in error)) throw error;
  process.stderr.write(`contract:diff: ${error.message}\n`);
  process.exitCode = 2;
}
