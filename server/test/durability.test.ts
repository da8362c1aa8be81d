import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../src/db/database.ts';
import { CHILD_ADMIN_TOKEN as ADMIN_TOKEN, REPO_ROOT, spawnServer } from './child-server.ts';
import { call, createTenant, engines, startServer, TEST_DATABASE_URL } from './harness.ts';

// Each test starts servers whose first requests compile the contract's validators: seconds, not milliseconds.
describe.each(engines)('durability on %s', { timeout: 60_000 }, (engine) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'sf-durable-'));
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const storeEnv: Record<string, string> =
    engine === 'postgres'
      ? { DATABASE_URL: TEST_DATABASE_URL, DATABASE_SCHEMA: schema, DATA_DIR: dataDir }
      : { DATA_DIR: dataDir };

  afterAll(async () => {
    if (engine === 'postgres') {
      const store = openStore({ dataDir, databaseUrl: TEST_DATABASE_URL });
      await sql.raw(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).execute(store.db);
      await store.close();
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps the data across a restart on the same location', async () => {
    const first = await startServer({ engine });
    const tenant = await createTenant(first);
    const created = await call(first.baseUrl, 'POST', '/api/v1/products', {
      headers: tenant.headers,
      body: { name: 'Caderno Pautado', type: 'DIGITAL', price: 24.9, costPrice: 9.9 },
    });
    expect(created.status).toBe(201);
    await first.close({ keepData: true });

    const second = await startServer({ engine, location: first.location });
    try {
      const read = await call(second.baseUrl, 'GET', `/api/v1/products/${created.body.data.product.id}`, {
        headers: tenant.headers,
      });
      expect(read.status).toBe(200);
      expect(read.body.data.product).toEqual({ ...created.body.data.product, variants: [] });
    } finally {
      await second.close();
    }
  });

  it('loses nothing on SIGTERM during requests: every 201 is kept, retries complete the rest, exit 0', async () => {
    const first = await spawnServer(storeEnv);
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const store = await call(first.baseUrl, 'POST', '/admin/stores', {
      headers: admin,
      body: { name: 'Loja Durável' },
    });
    expect(store.status).toBe(201);
    const storeId: string = store.body.data.store.id;
    const key = await call(first.baseUrl, 'POST', '/admin/api-keys', { headers: admin, body: { storeIds: [storeId] } });
    expect(key.status).toBe(201);
    const headers = { authorization: `Bearer ${key.body.data.apiKey.key}`, 'x-store-id': storeId };

    const bodyOf = (index: number) => ({ name: `Produto Durável ${index}`, type: 'DIGITAL', price: 10 + index });
    const create = (baseUrl: string, index: number) =>
      call(baseUrl, 'POST', '/api/v1/products', {
        headers: { ...headers, 'idempotency-key': `duravel-${index}` },
        body: bodyOf(index),
      });

    let answered = 0;
    const requests = Array.from({ length: 50 }, async (_, index) => {
      const response = await create(first.baseUrl, index);
      answered += 1;
      // SIGTERM as soon as the first answer is in: the other requests are still in flight.
      if (answered === 1) first.process.kill('SIGTERM');
      return response;
    });
    const settled = await Promise.allSettled(requests);
    expect(await first.exited).toEqual({ code: 0, signal: null });

    // A connection the closing server had not yet accepted is refused (the client retries it); every request on
    // an accepted connection is answered, and nothing is cut off half-way by the store closing.
    const answers = settled.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : undefined));
    const created = answers.filter((response) => response !== undefined);
    expect(created.length).toBeGreaterThan(0);
    for (const response of created) expect(response.status).toBe(201);

    const second = await spawnServer(storeEnv);
    try {
      for (const response of created) {
        const product = response.body.data.product;
        const read = await call(second.baseUrl, 'GET', `/api/v1/products/${product.id}`, { headers });
        expect(read.status).toBe(200);
        expect(read.body.data.product).toEqual({ ...product, variants: [] });
      }
      // Retrying the refused ones with their Idempotency-Key completes the batch exactly once.
      for (const [index, response] of answers.entries()) {
        if (response === undefined) expect((await create(second.baseUrl, index)).status).toBe(201);
      }
      const list = await call(second.baseUrl, 'GET', '/api/v1/products?limit=100', { headers });
      expect(list.body.data.pagination.total).toBe(50);
      expect(new Set(list.body.data.products.map((p: { name: string }) => p.name))).toEqual(
        new Set(Array.from({ length: 50 }, (_, index) => bodyOf(index).name)),
      );
    } finally {
      second.process.kill('SIGTERM');
      expect(await second.exited).toEqual({ code: 0, signal: null });
    }
  });

  // WAL with synchronous=NORMAL: a commit is in the WAL file (the OS's page cache) before the 201 is sent, so the
  // death of the process loses nothing; only a power loss or OS crash may lose the last commits (see the README).
  it('keeps every acknowledged create across kill -9 right after the 201s', async () => {
    const first = await spawnServer(storeEnv);
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const store = await call(first.baseUrl, 'POST', '/admin/stores', {
      headers: admin,
      body: { name: 'Loja Abrupta' },
    });
    const storeId: string = store.body.data.store.id;
    const key = await call(first.baseUrl, 'POST', '/admin/api-keys', { headers: admin, body: { storeIds: [storeId] } });
    const headers = { authorization: `Bearer ${key.body.data.apiKey.key}`, 'x-store-id': storeId };

    const acknowledged: { id: string; body: unknown }[] = [];
    let killed = false;
    // Four writers in parallel; SIGKILL the moment the 20th 201 arrives, with writes still in flight.
    const writer = async (writerIndex: number) => {
      for (let index = 0; !killed; index += 1) {
        const response = await call(first.baseUrl, 'POST', '/api/v1/products', {
          headers: { ...headers, 'idempotency-key': `abrupta-${writerIndex}-${index}` },
          body: { name: `Produto Abrupto ${writerIndex}-${index}`, type: 'DIGITAL', price: 5 + index },
        }).catch(() => undefined);
        if (response === undefined) return;
        expect(response.status).toBe(201);
        acknowledged.push({ id: response.body.data.product.id, body: response.body.data.product });
        if (acknowledged.length >= 20 && !killed) {
          killed = true;
          first.process.kill('SIGKILL');
        }
      }
    };
    await Promise.all([0, 1, 2, 3].map(writer));
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(acknowledged.length).toBeGreaterThanOrEqual(20);

    const second = await spawnServer(storeEnv);
    try {
      for (const product of acknowledged) {
        const read = await call(second.baseUrl, 'GET', `/api/v1/products/${product.id}`, { headers });
        expect(read.status).toBe(200);
        expect(read.body.data.product).toEqual({ ...(product.body as object), variants: [] });
      }
    } finally {
      second.process.kill('SIGTERM');
      expect(await second.exited).toEqual({ code: 0, signal: null });
    }
  });

  it('never leaves an Idempotency-Key stuck after kill -9 under concurrent creates: each retry is 201 or the replay', async () => {
    const first = await spawnServer(storeEnv);
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
    const store = await call(first.baseUrl, 'POST', '/admin/stores', {
      headers: admin,
      body: { name: 'Loja Abatida' },
    });
    const storeId: string = store.body.data.store.id;
    const key = await call(first.baseUrl, 'POST', '/admin/api-keys', { headers: admin, body: { storeIds: [storeId] } });
    const headers = { authorization: `Bearer ${key.body.data.apiKey.key}`, 'x-store-id': storeId };

    const total = 40;
    const bodyOf = (index: number) => ({ name: `Produto Abatido ${index}`, type: 'DIGITAL', price: 10 + index });
    const create = (baseUrl: string, index: number) =>
      call(baseUrl, 'POST', '/api/v1/products', {
        headers: { ...headers, 'idempotency-key': `abatido-${index}` },
        body: bodyOf(index),
      });

    let answered = 0;
    const requests = Array.from({ length: total }, async (_, index) => {
      const response = await create(first.baseUrl, index);
      answered += 1;
      // kill -9 as soon as the first answer is in: no shutdown, the other requests die wherever they are.
      if (answered === 1) first.process.kill('SIGKILL');
      return response;
    });
    const settled = await Promise.allSettled(requests);
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
    const before = settled.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value : undefined));
    expect(before.filter((response) => response === undefined).length).toBeGreaterThan(0);

    const second = await spawnServer(storeEnv);
    try {
      const ids = new Set<string>();
      for (const [index, earlier] of before.entries()) {
        const retried = await create(second.baseUrl, index);
        expect(retried.status).toBe(201);
        if (earlier !== undefined) {
          expect(earlier.status).toBe(201);
          expect(retried.body).toEqual(earlier.body);
          expect(retried.headers.get('idempotent-replayed')).toBe('true');
        }
        expect(retried.body.data.product.name).toBe(bodyOf(index).name);
        ids.add(retried.body.data.product.id);
      }
      expect(ids.size).toBe(total);
      const list = await call(second.baseUrl, 'GET', '/api/v1/products?limit=100', { headers });
      expect(list.body.data.pagination.total).toBe(total);
      expect(new Set(list.body.data.products.map((p: { id: string }) => p.id))).toEqual(ids);
    } finally {
      second.process.kill('SIGTERM');
      expect(await second.exited).toEqual({ code: 0, signal: null });
    }
  });
  it('fails start-up with exit 1 and a message when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '0.0.0.0', resolve));
    const { port } = blocker.address() as AddressInfo;
    try {
      const child = spawn(process.execPath, ['server/src/server.ts'], {
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH ?? '', PORT: String(port), ADMIN_TOKEN, LOG_LEVEL: 'silent', ...storeEnv },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code).toBe(1);
      expect(stderr).toContain('EADDRINUSE');
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
  });
});
