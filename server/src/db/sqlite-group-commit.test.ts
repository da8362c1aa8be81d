import { DatabaseSync } from 'node:sqlite';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Work as WorkOf } from './in-transaction.ts';
import { adaptNodeSqlite } from './sqlite-adapter.ts';
import { commitTogether } from './sqlite-group-commit.ts';

interface Tables {
  items: { name: string };
  lines: { item: string };
}

type Work = WorkOf<Tables, number>;

describe('writes committed together on the embedded store', () => {
  let database: DatabaseSync;
  let db: Kysely<Tables>;
  /** Transactions begun, as the adapter tells them. */
  let transactions: number;

  beforeEach(async () => {
    database = new DatabaseSync(':memory:');
    database.exec(`
      PRAGMA foreign_keys = ON;
      CREATE TABLE items (name TEXT PRIMARY KEY);
      CREATE TABLE lines (item TEXT REFERENCES items (name) DEFERRABLE INITIALLY DEFERRED);`);
    transactions = 0;
    const hooks = { beginning: () => (transactions += 1), ended: () => {} };
    db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: adaptNodeSqlite(database, hooks) }) });
  });

  const names = async () => (await db.selectFrom('items').select('name').orderBy('name').execute()).map((r) => r.name);
  /** Inserts an item, and answers how many items it then saw. */
  const insert =
    (name: string): Work =>
    async (trx) => {
      await trx.insertInto('items').values({ name }).execute();
      return (await trx.selectFrom('items').select('name').execute()).length;
    };

  it('runs them in order in one transaction, each seeing the ones before it, and answers each', async () => {
    const settled = await commitTogether(db, database, [insert('a'), insert('b'), insert('c')]);
    expect(settled).toEqual([
      { status: 'fulfilled', value: 1 },
      { status: 'fulfilled', value: 2 },
      { status: 'fulfilled', value: 3 },
    ]);
    expect(transactions).toBe(1);
    expect(await names()).toEqual(['a', 'b', 'c']);
  });

  it('fails a write alone: its own changes undone, the others committed in the same transaction', async () => {
    const failing: Work = async (trx) => {
      await trx.insertInto('items').values({ name: 'x' }).execute();
      throw new Error('the handler refused');
    };
    const duplicate = insert('a');
    const settled = await commitTogether(db, database, [insert('a'), failing, duplicate, insert('b')]);
    expect(settled.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect(settled[1]).toEqual({ status: 'rejected', reason: new Error('the handler refused') });
    expect(String((settled[2] as PromiseRejectedResult).reason)).toContain('UNIQUE constraint failed: items.name');
    expect(transactions).toBe(1);
    expect(await names()).toEqual(['a', 'b']);
  });

  it('runs every write again alone when the COMMIT fails: each succeeds or fails by itself', async () => {
    // A line naming no item passes its statement and fails the COMMIT (a deferred foreign key).
    const dangling: Work = async (trx) => {
      await trx.insertInto('lines').values({ item: 'none' }).execute();
      return 0;
    };
    const settled = await commitTogether(db, database, [insert('a'), dangling, insert('b')]);
    expect(settled).toEqual([
      { status: 'fulfilled', value: 1 },
      { status: 'rejected', reason: expect.objectContaining({ message: 'FOREIGN KEY constraint failed' }) },
      { status: 'fulfilled', value: 2 },
    ]);
    expect(transactions).toBe(4);
    expect(await names()).toEqual(['a', 'b']);
    expect(await db.selectFrom('lines').selectAll().execute()).toEqual([]);
  });

  it('runs every write again alone when SQLite ends the transaction early, as it does after an I/O error', async () => {
    const ending: Work = async (trx) => {
      await sql`ROLLBACK`.execute(trx);
      return 0;
    };
    const settled = await commitTogether(db, database, [insert('a'), ending, insert('b')]);
    expect(settled.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await names()).toEqual(['a', 'b']);
    expect(database.isTransaction).toBe(false);
  });

  it('runs a write that waited alone in a transaction of its own', async () => {
    expect(await commitTogether(db, database, [insert('a')])).toEqual([{ status: 'fulfilled', value: 1 }]);
    expect(transactions).toBe(1);
  });
});
