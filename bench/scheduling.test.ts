import { describe, expect, it } from 'vitest';
import { schedulingOver } from './load.ts';
import { threadTimes } from './processes.ts';

describe('threadTimes', () => {
  it.runIf(process.platform === 'linux')(
    "reads a live thread's time on a core and waiting, and nothing of a gone one",
    () => {
      const own = threadTimes(process.pid);
      expect(own?.running).toBeGreaterThan(0);
      expect(own?.waiting).toBeGreaterThanOrEqual(0);
      expect(threadTimes(2 ** 22 + 1)).toBeUndefined();
    },
  );
});

describe('schedulingOver', () => {
  const at = (running: number, waiting: number) => ({ running, waiting });

  it("gives each thread's share of the window's wall time", () => {
    expect(
      schedulingOver(
        1_000_000_000,
        { before: at(5e9, 1e9), after: at(5.9e9, 1.1e9) },
        { before: at(2e9, 0), after: at(2.4e9, 0.25e9) },
      ),
    ).toEqual({ mainOnCore: expect.closeTo(0.9), mainWaiting: expect.closeTo(0.1), loadWaiting: 0.25 });
  });

  it('gives nothing when a reading is missing or the window had no length', () => {
    const both = { before: at(0, 0), after: at(1, 1) };
    expect(schedulingOver(1e9, { before: undefined, after: at(1, 1) }, both)).toBeUndefined();
    expect(schedulingOver(1e9, both, { before: at(0, 0), after: undefined })).toBeUndefined();
    expect(schedulingOver(0, both, both)).toBeUndefined();
  });
});
