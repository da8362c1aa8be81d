import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { FIXTURE_SPEC } from '../test-helpers/run.ts';
import { startMock } from './mock.ts';

/** How many Prism processes this process has started and not ended. */
function prismChildren(): number {
  const listed = spawnSync('ps', ['-o', 'args=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  return listed.stdout.split('\n').filter((line) => line.includes('prism-cli')).length;
}

it('refuses a spec it cannot serve before it starts Prism, so no Prism is left behind', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mock-start-'));
  try {
    const spec = path.join(dir, 'openapi.yaml');
    const text = readFileSync(FIXTURE_SPEC, 'utf8').replace('info:\n', 'info:\n  x-max-body-bytes: lots\n');
    writeFileSync(spec, text);
    const before = prismChildren();
    await expect(startMock({ spec, port: 0 })).rejects.toThrow(/x-max-body-bytes/);
    expect(prismChildren()).toBe(before);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
