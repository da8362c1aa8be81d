// Helpers for the tool tests: run a project CLI with the same Node, find the specs to test.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';

export const ROOT = path.resolve(import.meta.dirname, '../..');
/** The stand-in contract: same conventions as openapi.yaml, small enough to reason about. */
export const FIXTURE_SPEC = path.join(ROOT, 'scripts/fixtures/sample-openapi.yaml');
export const CONTRACT_SPEC = path.join(ROOT, 'openapi.yaml');

/** The fixture always; the real contract once it exists. */
export function specsUnderTest(): [string, string][] {
  const specs: [string, string][] = [['fixture', FIXTURE_SPEC]];
  if (existsSync(CONTRACT_SPEC)) specs.push(['openapi.yaml', CONTRACT_SPEC]);
  return specs;
}

export interface RunResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a JS/TS entry point (a script or a package bin) with this Node, from the repo root. */
export function runNode(args: string[], env: Record<string, string> = {}): RunResult {
  const result = spawnSync(process.execPath, args, {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

export const REDOCLY_CLI = path.join(ROOT, 'node_modules/@redocly/cli/bin/cli.js');

/** Writes a document as YAML to a fresh temp dir and returns its path. */
export async function writeTempSpec(doc: unknown, name = 'openapi.yaml'): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'storefront-spec-'));
  const file = path.join(dir, name);
  await writeFile(file, stringify(doc), 'utf8');
  return file;
}
