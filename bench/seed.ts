// What a server target holds before the workloads run: two stores, one key for both, the product of the GET
// workload (with a variant), and N webhooks per store for the list workloads. Stores, key and product go
// through the API; the webhooks are one created through the API cloned with SQL, so 100,000 take seconds.
import { randomUUID } from 'node:crypto';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { seededProduct, seededVariant, webhookRequest } from './fixtures.ts';

export type StoreAccess =
  | { engine: 'sqlite'; file: string }
  | { engine: 'postgres'; databaseUrl: string; schema: string };

export interface ListStore {
  storeId: string;
  webhooks: number;
}

/** What the workloads need to address a server target. */
export interface Seed {
  storeId: string;
  apiKey: string;
  productId: string;
  /** Stores holding the list fixtures, by webhook count. */
  listStores: ListStore[];
}

async function call(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{
  status: number;
  body: { data?: Record<string, { id: string; key?: string }> } & Record<string, unknown>;
}> {
  const init = {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  };
  let response: Response;
  try {
    response = await fetch(base + path, init);
  } catch {
    // A kept-alive socket the server closed while the cloning held this process (its idle timeout) fails before
    // the request is sent: one retry on a new socket.
    response = await fetch(base + path, init);
  }
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : {} };
}

async function expectCreated(
  base: string,
  path: string,
  headers: Record<string, string>,
  body: unknown,
  field: string,
): Promise<{ id: string; key?: string }> {
  const reply = await call(base, 'POST', path, headers, body);
  const created = reply.body.data?.[field];
  if (reply.status !== 201 || !created) {
    throw new Error(`seed: POST ${path} answered ${reply.status}: ${JSON.stringify(reply.body).slice(0, 500)}`);
  }
  return created;
}

/** The few SQL verbs the cloning needs, over both engines (`?` placeholders). */
interface Sql {
  rows(text: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  run(text: string, params?: unknown[]): Promise<void>;
  tablesWithColumn(column: string): Promise<string[]>;
  close(): Promise<void>;
}

function sqliteSql(file: string): Sql {
  const db = new DatabaseSync(file);
  db.exec('PRAGMA busy_timeout = 10000');
  type Param = null | number | string;
  return {
    async rows(text, params = []) {
      return db.prepare(text).all(...(params as Param[])) as Record<string, unknown>[];
    },
    async run(text, params = []) {
      db.prepare(text).run(...(params as Param[]));
    },
    async tablesWithColumn(column) {
      const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
      return tables
        .filter(({ name }) =>
          (db.prepare(`PRAGMA table_info(${name})`).all() as { name: string }[]).some((c) => c.name === column),
        )
        .map(({ name }) => name);
    },
    async close() {
      db.close();
    },
  };
}

async function postgresSql(databaseUrl: string, schema: string): Promise<Sql> {
  const client = new pg.Client({ connectionString: databaseUrl, options: `-c search_path=${schema}` });
  await client.connect();
  const numbered = (text: string) => {
    let n = 0;
    return text.replace(/\?/g, () => `$${++n}`);
  };
  return {
    async rows(text, params = []) {
      return (await client.query(numbered(text), params)).rows;
    },
    async run(text, params = []) {
      await client.query(numbered(text), params);
    },
    async tablesWithColumn(column) {
      const result = await client.query(
        'SELECT table_name FROM information_schema.columns WHERE table_schema = $1 AND column_name = $2',
        [schema, column],
      );
      return result.rows.map((row: { table_name: string }) => row.table_name);
    },
    async close() {
      await client.end();
    },
  };
}

/** Inserts `rows` (same keys) in multi-row statements of at most ~30,000 parameters. */
async function insertMany(sql: Sql, table: string, rows: Record<string, unknown>[]): Promise<void> {
  const first = rows[0];
  if (!first) return;
  const columns = Object.keys(first);
  const perStatement = Math.max(1, Math.floor(30_000 / columns.length));
  for (let start = 0; start < rows.length; start += perStatement) {
    const batch = rows.slice(start, start + perStatement);
    const tuple = `(${columns.map(() => '?').join(', ')})`;
    await sql.run(
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${batch.map(() => tuple).join(', ')}`,
      batch.flatMap((row) => columns.map((column) => row[column] ?? null)),
    );
  }
}

/**
 * Clones webhook `templateId` until the store holds `count` webhooks: new id, a numbered name, distinct
 * timestamps, and the template's rows in every table with a `webhook_id` column (its event subscriptions).
 */
async function cloneWebhooks(sql: Sql, templateId: string, count: number): Promise<void> {
  const [template] = await sql.rows('SELECT * FROM webhooks WHERE id = ?', [templateId]);
  if (!template) throw new Error(`seed: webhook ${templateId} is not in the webhooks table`);
  const dependents: { table: string; rows: Record<string, unknown>[] }[] = [];
  for (const table of await sql.tablesWithColumn('webhook_id')) {
    dependents.push({ table, rows: await sql.rows(`SELECT * FROM ${table} WHERE webhook_id = ?`, [templateId]) });
  }
  const base = Date.parse('2026-01-01T00:00:00.000Z');
  const chunk = 10_000;
  await sql.run('BEGIN');
  try {
    for (let start = 1; start < count; start += chunk) {
      const webhooks: Record<string, unknown>[] = [];
      const children = dependents.map(({ table }) => ({ table, rows: [] as Record<string, unknown>[] }));
      for (let i = start; i < Math.min(count, start + chunk); i++) {
        const id = randomUUID();
        const at = new Date(base + i * 1000).toISOString();
        webhooks.push({ ...template, id, name: `${String(template.name)} ${i}`, created_at: at, updated_at: at });
        dependents.forEach(({ rows }, index) => {
          // Dependent rows that copy the webhook's timestamps (its event subscriptions) take the clone's own.
          for (const row of rows) {
            const own = 'created_at' in row ? { created_at: at } : {};
            children[index]?.rows.push({ ...row, ...own, webhook_id: id });
          }
        });
      }
      await insertMany(sql, 'webhooks', webhooks);
      for (const { table, rows } of children) await insertMany(sql, table, rows);
    }
    // The server keeps per-store webhook counts (migration 005) in step with its own writes; these are not its.
    const clones = Math.max(0, count - 1);
    await sql.run('UPDATE webhook_counts SET total = total + ?, active = active + ? WHERE store_id = ?', [
      clones,
      Number(template.active) === 1 ? clones : 0,
      template.store_id,
    ]);
    await sql.run('COMMIT');
  } catch (error) {
    await sql.run('ROLLBACK');
    throw error;
  }
}

/** Creates the bench's data on a freshly started server. `webhookCounts` are the list fixtures (one store each). */
export async function seedServer(
  base: string,
  adminToken: string,
  access: StoreAccess,
  webhookCounts: number[],
): Promise<Seed> {
  const admin = { authorization: `Bearer ${adminToken}` };
  // The product workloads get a store of their own: a list fixture's webhooks subscribe to PRODUCT_CREATED, and
  // 1,000 of them (cloned past the API's cap of 20) would turn every create into 1,000 outbox deliveries.
  const storeId = (await expectCreated(base, '/admin/stores', admin, { name: 'Bench products' }, 'store')).id;
  const listStoreIds: string[] = [];
  for (const count of webhookCounts) {
    listStoreIds.push(
      (await expectCreated(base, '/admin/stores', admin, { name: `Bench ${count} webhooks` }, 'store')).id,
    );
  }
  const stores = [storeId, ...listStoreIds];
  const key = await expectCreated(base, '/admin/api-keys', admin, { name: 'bench', storeIds: stores }, 'apiKey');
  const apiKey = key.key as string;
  const auth = (store: string) => ({ authorization: `Bearer ${apiKey}`, 'x-store-id': store });
  const product = await expectCreated(base, '/api/v1/products', auth(storeId), seededProduct(), 'product');
  await expectCreated(base, `/admin/products/${product.id}/variants`, admin, seededVariant(), 'variant');
  const seed: Seed = { storeId, apiKey, productId: product.id, listStores: [] };

  const sql =
    access.engine === 'sqlite' ? sqliteSql(access.file) : await postgresSql(access.databaseUrl, access.schema);
  try {
    for (const [index, count] of webhookCounts.entries()) {
      const store = listStoreIds[index] as string;
      const template = await expectCreated(base, '/api/v1/webhooks', auth(store), webhookRequest(), 'webhook');
      await cloneWebhooks(sql, template.id as string, count);
      const check = await call(base, 'GET', '/api/v1/webhooks?page=1&limit=1', auth(store));
      const total = (check.body.data as unknown as { pagination?: { total?: number } } | undefined)?.pagination?.total;
      if (check.status !== 200 || total !== count) {
        throw new Error(`seed: the store should list ${count} webhooks, the server says ${check.status} / ${total}`);
      }
      seed.listStores.push({ storeId: store, webhooks: count });
    }
  } finally {
    await sql.close();
  }
  return seed;
}
