import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFlags } from './targets.ts';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** A checkout whose package.json has this `start` script. */
function checkoutWithStart(start: string): string {
  const root = mkdtempSync(path.join(tmpdir(), 'sf-start-'));
  roots.push(root);
  writeFileSync(path.join(root, 'package.json'), JSON.stringify({ scripts: { start } }));
  return root;
}

describe('startFlags: the server targets run with the Node flags of their checkout’s npm start', () => {
  it('takes every flag between node and the server', async () => {
    const root = checkoutWithStart('node --max-semi-space-size=16  --stack-size=2000 server/src/server.ts');
    expect(await startFlags(root)).toEqual(['--max-semi-space-size=16', '--stack-size=2000']);
  });

  it('takes none from a start script without flags (an older ref)', async () => {
    expect(await startFlags(checkoutWithStart('node server/src/server.ts'))).toEqual([]);
  });

  it('refuses a start script of another shape rather than run the server otherwise', async () => {
    await expect(startFlags(checkoutWithStart('tsx server/src/server.ts'))).rejects.toThrow(
      'is not node [flags] server/src/server.ts',
    );
  });
});
