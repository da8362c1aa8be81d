import { describe, expect, it } from 'vitest';
// One round's measurement: the figures a test gives, plausible ones for the rest.
import { measurement as round } from './measurement-fixture.ts';
import { combineRounds, inTurn, roundOrder } from './rounds.ts';

describe('combineRounds', () => {
  it('takes the median of each per-round figure and sums the counts', () => {
    const row = combineRounds([
      round({
        reqPerSec: 900,
        p50: 2,
        p99: 9,
        cpuPerRequest: 310,
        rss: 1,
        requests: 9000,
        statusCodes: { '200': 9000 },
      }),
      round({
        reqPerSec: 1500,
        p50: 1,
        p99: 4,
        cpuPerRequest: 250,
        rss: 2,
        requests: 15000,
        errors: 1,
        statusCodes: { '200': 14999, '500': 1 },
      }),
      round({
        reqPerSec: 1000,
        p50: 3,
        p99: 5,
        cpuPerRequest: 290,
        rss: 3,
        requests: 10000,
        statusCodes: { '200': 10000 },
      }),
    ]);
    expect(row).toEqual({
      target: 'server-embedded',
      workload: 'get-product',
      kind: 'get-product',
      connections: 10,
      requests: 34000,
      reqPerSec: 1000,
      p50: 2,
      p99: 5,
      errors: 1,
      statusCodes: { '200': 33999, '500': 1 },
      bytesPerResponse: 500,
      rss: 3,
      cpuPerRequest: 290,
    });
  });

  it('averages the two middle rounds of an even number, and keeps the database CPU only when every round has it', () => {
    expect(
      combineRounds([
        round({ reqPerSec: 100, databaseCpuPerRequest: 40 }),
        round({ reqPerSec: 300, databaseCpuPerRequest: 60 }),
      ]),
    ).toMatchObject({ reqPerSec: 200, databaseCpuPerRequest: 50 });
    expect(combineRounds([round({ databaseCpuPerRequest: 40 }), round({})])).not.toHaveProperty(
      'databaseCpuPerRequest',
    );
  });

  it('takes the median of each scheduling share, only when every round has them', () => {
    const shares = (mainOnCore: number, mainWaiting: number, loadWaiting: number) => ({
      scheduling: { mainOnCore, mainWaiting, loadWaiting },
    });
    expect(
      combineRounds([round(shares(0.9, 0.1, 0.3)), round(shares(0.8, 0.05, 0.2)), round(shares(0.95, 0.2, 0.25))]),
    ).toMatchObject(shares(0.9, 0.1, 0.25));
    expect(combineRounds([round(shares(0.9, 0.1, 0.3)), round({})])).not.toHaveProperty('scheduling');
  });

  it("takes each status code's percentiles as the median of its rounds, for the codes every round has", () => {
    const split = (get: number, create: number, other?: number) => ({
      '200': { p50: get, p99: get * 3 },
      '201': { p50: create, p99: create * 2 },
      ...(other === undefined ? {} : { '204': { p50: other, p99: other } }),
    });
    expect(
      combineRounds([
        round({ byStatus: split(1, 10, 5) }),
        round({ byStatus: split(3, 30) }),
        round({ byStatus: split(2, 20) }),
      ]),
    ).toMatchObject({ byStatus: { '200': { p50: 2, p99: 6 }, '201': { p50: 20, p99: 40 } } });
    expect(combineRounds([round({ byStatus: split(1, 10) }), round({})])).not.toHaveProperty('byStatus');
    expect(combineRounds([round({}), round({})])).not.toHaveProperty('byStatus');
  });

  it('refuses no rounds', () => {
    expect(() => combineRounds([])).toThrow('no rounds');
  });
});

describe('inTurn', () => {
  it('starts each round one target further on', () => {
    const targets = ['express', 'prism', 'server'];
    expect([0, 1, 2, 3].map((r) => inTurn(targets, r))).toEqual([
      ['express', 'prism', 'server'],
      ['prism', 'server', 'express'],
      ['server', 'express', 'prism'],
      ['express', 'prism', 'server'],
    ]);
    expect(inTurn([], 2)).toEqual([]);
  });
});

describe('roundOrder', () => {
  const list = (id: string) => ({ id });
  const entries = [
    { target: 'express', workloads: [list('list')] },
    { target: 'embedded', workloads: [list('list 1000 first'), list('list 1000 last')] },
    { target: 'postgres', workloads: [list('list 1000 first'), list('list 1000 last')] },
  ];
  const order = (round: number) =>
    roundOrder(entries, round).map(({ target, workload }) => `${target}: ${workload.id}`);

  it('measures a workload on every target that has it before the next workload, each group starting further on', () => {
    expect(order(0)).toEqual([
      'express: list',
      'embedded: list 1000 first',
      'postgres: list 1000 first',
      'embedded: list 1000 last',
      'postgres: list 1000 last',
    ]);
    expect(order(1)).toEqual([
      'postgres: list 1000 first',
      'embedded: list 1000 first',
      'postgres: list 1000 last',
      'embedded: list 1000 last',
      'express: list',
    ]);
  });

  it('takes one workload per target as the targets in turn', () => {
    const one = entries.map(({ target }) => ({ target, workloads: [list('get-product')] }));
    expect([0, 1].map((round) => roundOrder(one, round).map(({ target }) => target))).toEqual([
      ['express', 'embedded', 'postgres'],
      ['embedded', 'postgres', 'express'],
    ]);
    expect(roundOrder([], 1)).toEqual([]);
  });
});
