// For the bench's tests: a measurement with plausible figures, the ones a test is about given.
import type { Measurement } from './load.ts';

export function measurement(figures: Partial<Measurement>): Measurement {
  return {
    target: 'server-embedded',
    workload: 'get-product',
    kind: 'get-product',
    connections: 10,
    requests: 1000,
    reqPerSec: 100,
    p50: 1,
    p99: 3,
    errors: 0,
    statusCodes: { '200': 1000 },
    bytesPerResponse: 500,
    rss: 100,
    cpuPerRequest: 300,
    ...figures,
  };
}
