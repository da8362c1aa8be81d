import { describe, expect, it } from 'vitest';
import type { Measurement } from './load.ts';
import { measurement } from './measurement-fixture.ts';
import { checkGoals, type Settings, withRatios } from './report.ts';

const settings = { connections: [10], webhookCounts: [1000] } as Settings;

const row = (target: string, reqPerSec: number): Measurement => measurement({ target, reqPerSec });

const beforeAfterGoals = (rows: Measurement[]) =>
  checkGoals(withRatios(rows), [], [], settings).filter((goal) => goal.goal.startsWith('no request path slower'));

describe('the before/after goal (`--baseline-ref`)', () => {
  it('compares each server with itself at the ref, the embedded store and PostgreSQL each on its own', () => {
    const rows = [
      row('server-embedded', 100),
      row('server-embedded@abc123', 95),
      row('server-postgres', 70),
      row('server-postgres@abc123', 100),
    ];
    expect(beforeAfterGoals(rows)).toEqual([
      {
        goal: 'no request path slower than server-embedded@abc123 (≥ 0.9 ×, the noise of one run)',
        holds: true,
        detail: 'get-product @10: 1.05×',
      },
      {
        goal: 'no request path slower than server-postgres@abc123 (≥ 0.9 ×, the noise of one run)',
        holds: false,
        detail: 'get-product @10: 0.70×',
      },
    ]);
  });

  it('is not a goal of a run without a ref', () => {
    expect(beforeAfterGoals([row('server-embedded', 100), row('server-postgres', 70)])).toEqual([]);
  });
});
