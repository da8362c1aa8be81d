import type { Socket } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWERED_LATER, AnsweredLater, answeredLaterOf, answerLater } from '../src/db/pg-answered-later.ts';
import { engines, TEST_DATABASE_URL } from './harness.ts';
import { countSocketWrites, type SocketWrites } from './socket-writes.ts';

describe.skipIf(!engines.includes('postgres'))('statements answered later (PostgreSQL)', () => {
  let pool: pg.Pool;
  let client: pg.PoolClient;
  /** Writes that reach the connection's socket (a corked batch is one). */
  let writes: SocketWrites;

  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: TEST_DATABASE_URL, max: 1, pipeline: true });
    pool.on('connect', answerLater);
    client = await pool.connect();
    writes = countSocketWrites((client as unknown as { connection: { stream: Socket } }).connection.stream);
    await client.query('create temporary table answered (id int primary key)');
  });

  afterAll(async () => {
    client.release();
    await pool.end();
  });

  it('leave with the statement that follows them: begin, a read, a marked insert and commit in two writes', async () => {
    await client.query('delete from answered');
    writes.reset();
    await client.query('begin');
    const read = await client.query('select count(*)::int as n from answered');
    const insert = await client.query(`insert into answered values ($1)${ANSWERED_LATER}`, [1]);
    const commit = await client.query('commit');
    expect(writes.count).toBe(2);
    expect(read.rows).toEqual([{ n: 0 }]);
    // Nobody waited for the insert: its answer is empty, and the commit vouches for it.
    expect(insert).toMatchObject({ rowCount: null, rows: [] });
    expect(commit.command).toBe('COMMIT');
    expect((await client.query('select id from answered')).rows).toEqual([{ id: 1 }]);
  });

  it('report their failure at the next statement, whose transaction commits nothing', async () => {
    await client.query('delete from answered');
    await client.query('insert into answered values (1)');
    await client.query('begin');
    await client.query('insert into answered values ($1)', [2]);
    // A duplicate key: the caller learns it from the commit, with the insert's own error.
    await client.query(`insert into answered values ($1)${ANSWERED_LATER}`, [1]);
    await expect(client.query('commit')).rejects.toMatchObject({ code: '23505' });
    expect((await client.query('select id from answered order by id')).rows).toEqual([{ id: 1 }]);
  });

  it('report their failure as their caller said it is to be read, and only theirs', async () => {
    await client.query('delete from answered');
    await client.query('insert into answered values (1)');
    await client.query('begin');
    const kept = await client.query(`insert into answered values ($1)${ANSWERED_LATER}`, [2]);
    answeredLaterOf(kept.rows)?.failsAs(() => new Error('not this one: it did not fail'));
    const clash = await client.query(`insert into answered values ($1)${ANSWERED_LATER}`, [1]);
    const statement = answeredLaterOf(clash.rows);
    expect(statement).toBeInstanceOf(AnsweredLater);
    // Translations apply in the order given, each to what the one before made of the failure.
    statement?.failsAs((error) => ({ duplicate: (error as { code?: string }).code }));
    statement?.failsAs((failure) => ({ ...(failure as object), read: 'as a duplicate' }));
    await expect(client.query('commit')).rejects.toEqual({ duplicate: '23505', read: 'as a duplicate' });
    expect((await client.query('select id from answered order by id')).rows).toEqual([{ id: 1 }]);
    // A statement answered now names none.
    expect(answeredLaterOf((await client.query('select 1 as n')).rows)).toBeUndefined();
  });

  it('report it at a read that follows too, rather than the read\'s own "transaction aborted"', async () => {
    await client.query('begin');
    const failing = await client.query(`select 1 / $1::int${ANSWERED_LATER}`, [0]);
    answeredLaterOf(failing.rows)?.failsAs((error) => ({ read: (error as { code?: string }).code }));
    await expect(client.query('select 1 as n')).rejects.toEqual({ read: '22012' });
    await client.query('rollback');
  });

  it('let a rollback answer for itself when one of them failed', async () => {
    await client.query('begin');
    await client.query(`select 1 / $1::int${ANSWERED_LATER}`, [0]);
    await expect(client.query('rollback')).resolves.toMatchObject({ command: 'ROLLBACK' });
    await expect(client.query('select 1 as n')).resolves.toMatchObject({ rows: [{ n: 1 }] });
  });

  it('are awaited outside a transaction, so an answer is never left for the next user of the connection', async () => {
    writes.reset();
    const { rows } = await client.query(`select $1::int as n${ANSWERED_LATER}`, [7]);
    expect(rows).toEqual([{ n: 7 }]);
    await expect(client.query(`select 1 / $1::int${ANSWERED_LATER}`, [0])).rejects.toMatchObject({ code: '22012' });
    expect(writes.count).toBe(2);
  });
});
