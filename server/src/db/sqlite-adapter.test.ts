import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { adaptNodeSqlite } from './sqlite-adapter.ts';

describe('the node:sqlite adapter', () => {
  const database = new DatabaseSync(':memory:');
  database.exec(`
    CREATE TABLE a (id TEXT, name TEXT, "__proto__" TEXT);
    CREATE TABLE b (id TEXT, a_id TEXT, name TEXT);
    INSERT INTO a VALUES ('a1', 'Alfa', 'own'), ('a2', 'Beta', NULL);
    INSERT INTO b VALUES ('b1', 'a1', 'Bravo');`);
  const adapted = adaptNodeSqlite(database);
  const query = 'SELECT * FROM a LEFT JOIN b ON b.a_id = a.id WHERE a.id <> ? ORDER BY a.id';
  /** What node:sqlite itself answers, as plain objects. */
  const own = () =>
    database
      .prepare(query)
      .all('none')
      .map((row) => ({ ...row }));

  it('reads the rows node:sqlite reads: a repeated column name keeps its last value, as there', () => {
    expect(adapted.prepare(query).all(['none'])).toEqual(own());
    expect(adapted.prepare(query).all(['none'])).toEqual([
      { id: 'b1', name: 'Bravo', ['__proto__']: 'own', a_id: 'a1' },
      { id: null, name: null, ['__proto__']: null, a_id: null },
    ]);
  });

  it('keeps a column named __proto__ as a field, not as the row’s prototype', () => {
    const [row] = adapted.prepare('SELECT "__proto__" FROM a WHERE id = ?').all(['a1']) as object[];
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(row, '__proto__')?.value).toBe('own');
  });

  it('iterates the same rows it reads', () => {
    expect([...adapted.prepare(query).iterate(['none'])]).toEqual(own());
  });
});

describe('the node:sqlite adapter told of its transactions', () => {
  const database = new DatabaseSync(':memory:');
  database.exec('CREATE TABLE t (v INTEGER)');
  const told: string[] = [];
  const adapted = adaptNodeSqlite(database, {
    beginning: () => told.push('beginning'),
    ended: () => told.push('ended'),
  });
  const run = (sqlText: string) => adapted.prepare(sqlText).run([]);

  it('tells each transaction’s beginning and its end, by COMMIT or by ROLLBACK, and nothing of other statements', () => {
    told.length = 0;
    run('begin');
    run('INSERT INTO t VALUES (1)');
    run('commit');
    run('begin');
    run('rollback');
    expect(told).toEqual(['beginning', 'ended', 'beginning', 'ended']);
  });

  it('tells the end of a transaction that failed to begin', () => {
    run('begin');
    told.length = 0;
    expect(() => run('begin')).toThrow(/within a transaction/);
    expect(told).toEqual(['beginning', 'ended']);
    run('rollback');
  });
});
