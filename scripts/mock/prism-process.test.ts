import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, it } from 'vitest';
import { FIXTURE_SPEC } from '../test-helpers/run.ts';
import { freePort, startPrismOnFreePort } from './prism-process.ts';

const HOST = '127.0.0.1';

it('starts Prism on another port when the one found free is taken before Prism binds it', async () => {
  const holder = http.createServer((_req, res) => res.end('the holder'));
  await new Promise<void>((resolve) => holder.listen(0, HOST, resolve));
  const taken = (holder.address() as AddressInfo).port;
  const offered: number[] = [];
  const nextPort = async (host: string) => {
    const port = offered.length === 0 ? taken : await freePort(host);
    offered.push(port);
    return port;
  };
  try {
    const { prism, port } = await startPrismOnFreePort(FIXTURE_SPEC, HOST, () => {}, nextPort);
    try {
      expect(offered).toEqual([taken, port]);
      expect(port).not.toBe(taken);
      const answer = await fetch(`http://${HOST}:${port}/`);
      expect(await answer.text()).not.toBe('the holder');
    } finally {
      prism.kill('SIGKILL');
    }
  } finally {
    await new Promise((resolve) => holder.close(resolve));
  }
});
