import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { onTestFinished } from 'vitest';

/**
 * A new directory under the system's temporary one, named `prefix…`, removed once the running test is over.
 * Called inside a test; the removal comes after its `afterEach` hooks, so a store they close is closed first.
 */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
