import { describe, expect, it } from 'vitest';
import type { Measurement } from './load.ts';
import { measurement } from './measurement-fixture.ts';
import { checkGoals, type Settings, withRatios } from './report.ts';

const settings = { connections: [10, 50], webhookCounts: [1000] } as Settings;

const row = (target: string, connections: number, p50: number, p99: number): Measurement =>
  measurement({ target, connections, p50, p99 });

const tailGoal = (rows: Measurement[]) =>
  checkGoals(withRatios(rows), [], [], settings).find((goal) => goal.goal.startsWith('p99 ≤ 3 × p50'));

describe('the tail goal (p99 ≤ 3 × p50 at the highest connection count)', () => {
  it('judges the servers only, and shows the baselines of the same run beside them', () => {
    const rows = [
      row('server-embedded', 50, 5, 14),
      row('server-embedded', 10, 1, 9),
      row('baseline-express', 50, 2, 8),
      row('baseline-raw', 50, 1, 5),
    ];
    expect(tailGoal(rows)).toEqual({
      goal: 'p99 ≤ 3 × p50 at 50 connections (every server workload)',
      holds: true,
      detail:
        'server-embedded get-product: p99/p50 2.8; (not judged) baseline-express get-product: p99/p50 4.0; ' +
        '(not judged) baseline-raw get-product: p99/p50 5.0',
    });
    expect(tailGoal([...rows, row('server-postgres', 50, 5, 16)])).toMatchObject({ holds: false });
  });

  it("names each status code's percentiles where a row has them (mixed: its GETs and its creates)", () => {
    const mixed = measurement({
      target: 'server-embedded',
      workload: 'mixed',
      kind: 'mixed',
      connections: 50,
      p50: 4,
      p99: 16,
      byStatus: { '200': { p50: 3.5, p99: 9 }, '201': { p50: 12, p99: 30 } },
    });
    expect(tailGoal([mixed])).toEqual({
      goal: 'p99 ≤ 3 × p50 at 50 connections (every server workload)',
      holds: false,
      detail: 'server-embedded mixed: p99/p50 4.0 (200: p50 3.5 ms, p99 9.0 ms; 201: p50 12 ms, p99 30 ms)',
    });
  });

  it('says who waited for a core during the windows, where the OS said (Linux)', () => {
    const creates = measurement({
      workload: 'create-product',
      kind: 'create-product',
      connections: 50,
      p50: 10,
      p99: 32,
      scheduling: { mainOnCore: 0.904, mainWaiting: 0.087, loadWaiting: 0.236 },
    });
    expect(tailGoal([creates])).toEqual({
      goal: 'p99 ≤ 3 × p50 at 50 connections (every server workload)',
      holds: false,
      detail:
        'server-embedded create-product: p99/p50 3.2; main thread on a core 90%, waiting for one 9%; ' +
        'load generator waiting 24%',
    });
  });

  it('is not measured when no server row is at that count, whatever the baselines show', () => {
    expect(tailGoal([row('baseline-express', 50, 2, 8)])).toEqual({
      goal: 'p99 ≤ 3 × p50 at 50 connections (every server workload)',
      holds: null,
      detail: 'not measured in this run',
    });
  });
});
