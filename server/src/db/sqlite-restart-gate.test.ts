import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/temp-dir.ts';
import { closeGate, gatedTransactions, type RestartGate, restartGate, withGateClosed } from './sqlite-restart-gate.ts';

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A thread writing transactions to `file` for `ms`, one after another through the adapter, as the write thread
 * does, told of each through the gate. It answers with each transaction's span, from its BEGIN statement's start
 * to its COMMIT's end.
 */
function writer(file: string, gate: RestartGate, ms: number): Promise<[number, number][]> {
  const code = `
    const { parentPort, workerData } = require('node:worker_threads');
    const { DatabaseSync } = require('node:sqlite');
    const now = () => performance.timeOrigin + performance.now();
    (async () => {
      const { adaptNodeSqlite } = await import(workerData.adapter);
      const { gatedTransactions } = await import(workerData.gateModule);
      const gate = gatedTransactions(workerData.gate);
      const spans = [];
      let started = 0;
      const hooks = {
        beginning() { gate.beginning(); started = now(); },
        ended() { spans.push([started, now()]); gate.ended(); },
      };
      const adapted = adaptNodeSqlite(new DatabaseSync(workerData.file, { timeout: 5000 }), hooks);
      const until = now() + workerData.ms;
      while (now() < until) {
        adapted.prepare('begin').run([]);
        adapted.prepare('INSERT INTO t (v) VALUES (randomblob(3000))').run([]);
        adapted.prepare('commit').run([]);
      }
      parentPort.postMessage(spans);
    })();`;
  const worker = new Worker(code, {
    eval: true,
    workerData: {
      file,
      gate,
      ms,
      adapter: new URL('./sqlite-adapter.ts', import.meta.url).href,
      gateModule: new URL('./sqlite-restart-gate.ts', import.meta.url).href,
    },
  });
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

/** RESTARTs run through the gate while a writer writes: each RESTART's span and its `busy`, and the writer's spans. */
async function restartsBesideWrites() {
  const file = path.join(tempDir('sf-gate-'), 'gate.sqlite');
  const database = new DatabaseSync(file, { timeout: 100 });
  database.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; CREATE TABLE t (v BLOB)');
  const restart = database.prepare('PRAGMA wal_checkpoint(RESTART)');
  const gate = restartGate();
  const writes = writer(file, gate, 1_500);
  const restarts: { span: [number, number]; busy: number }[] = [];
  let done = false;
  void writes.finally(() => {
    done = true;
  });
  await sleep(200);
  while (!done) {
    withGateClosed(gate, 100, () => {
      const start = now();
      const { busy } = restart.get() as { busy: number };
      restarts.push({ span: [start, now()], busy });
    });
    await sleep(20);
  }
  const spans = await writes;
  database.close();
  const overlapping = restarts.filter(({ span: [from, to] }) =>
    spans.some(([begun, ended]) => begun < to && ended > from),
  );
  return { restarts, spans, overlapping };
}

describe('the restart gate', () => {
  it('keeps every transaction of the gated thread out of every RESTART, and no RESTART finds the lock taken', async () => {
    const { restarts, spans, overlapping } = await restartsBesideWrites();
    expect(spans.length).toBeGreaterThan(100);
    expect(restarts.length).toBeGreaterThan(10);
    expect(overlapping).toEqual([]);
    expect(restarts.filter(({ busy }) => busy !== 0)).toEqual([]);
  });

  it('waits for the transaction in progress before it closes on the lock, and then only as long as it was told', () => {
    const gate = restartGate();
    const thread = gatedTransactions(gate);
    thread.beginning();
    const start = now();
    // The transaction never ends (its thread gone): the RESTART runs once the wait it was given is over.
    const ranAfter = withGateClosed(gate, 50, () => now() - start);
    expect(ranAfter).toBeGreaterThanOrEqual(49);
    expect(ranAfter).toBeLessThan(1_000);
    thread.ended();
  });

  it('lets the gated thread go on once the gate opens, also when it was opened for a checkpointer gone', () => {
    const gate = restartGate();
    closeGate(gate);
    // Another thread opens it, as the checkpointer's fallback does for a thread gone mid-RESTART.
    const opener = new Worker(
      `const { workerData } = require('node:worker_threads');
      import(workerData.gateModule).then(({ openGate }) => setTimeout(() => openGate(workerData.gate), 100));`,
      { eval: true, workerData: { gate, gateModule: new URL('./sqlite-restart-gate.ts', import.meta.url).href } },
    );
    const start = now();
    gatedTransactions(gate).beginning();
    expect(now() - start).toBeGreaterThanOrEqual(90);
    void opener.terminate();
  });
});
