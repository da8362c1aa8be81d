import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

type Bindable = null | number | bigint | string | Uint8Array;

// node:sqlite binds no booleans or undefined; repositories write flags as 0/1, this is the safety net.
function toBindable(value: unknown): Bindable {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value as Bindable;
}

/**
 * Presents Node's built-in `node:sqlite` as the better-sqlite3-shaped database Kysely's SqliteDialect expects.
 * Prepared statements are cached per SQL text: Kysely compiles the same text for the same query shape.
 */
export function adaptNodeSqlite(database: DatabaseSync): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  const wrap = (statement: StatementSync): SqliteStatement => ({
    reader: statement.columns().length > 0,
    all: (parameters) => statement.all(...parameters.map(toBindable)) as unknown[],
    run: (parameters) => {
      const result = statement.run(...parameters.map(toBindable));
      return { changes: result.changes, lastInsertRowid: result.lastInsertRowid };
    },
    iterate: (parameters) => statement.iterate(...parameters.map(toBindable)) as IterableIterator<unknown>,
  });
  return {
    close: () => database.close(),
    prepare: (sqlText) => {
      let statement = cache.get(sqlText);
      if (!statement) {
        statement = wrap(database.prepare(sqlText));
        if (cache.size > 500) cache.clear();
        cache.set(sqlText, statement);
      }
      return statement;
    },
  };
}
