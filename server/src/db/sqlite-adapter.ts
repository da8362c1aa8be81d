import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import type { TransactionHooks } from './sqlite-restart-gate.ts';

type Bindable = null | number | bigint | string | Uint8Array;

// node:sqlite binds no booleans or undefined; repositories write flags as 0/1, this is the safety net.
function toBindable(value: unknown): Bindable {
  if (value === undefined) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value as Bindable;
}

type Row = Record<string, unknown>;

/** Row builders by column list: one object literal per list, compiled once. */
const builders = new Map<string, (values: unknown[]) => Row>();

/**
 * A function making a row object from the values of a row read as an array, in `names` order. node:sqlite
 * builds each row object a property at a time, which for a product's ~35 columns costs twice the read; an
 * object literal of a fixed shape is made at once. A name repeated keeps its last value, as node:sqlite's own
 * objects do.
 */
function rowBuilder(names: string[]): (values: unknown[]) => Row {
  const key = names.join('\0');
  let build = builders.get(key);
  if (build === undefined) {
    // A computed key for `__proto__`, which as a plain key would set the prototype instead of a field.
    const fields = names.map(
      (name, index) => `${name === '__proto__' ? `[${JSON.stringify(name)}]` : JSON.stringify(name)}: values[${index}]`,
    );
    build = new Function('values', `return { ${fields.join(', ')} };`) as (values: unknown[]) => Row;
    builders.set(key, build);
  }
  return build;
}

/**
 * Kysely's statement `sqlText` telling `hooks` of the transaction it begins or ends: `beginning` before BEGIN,
 * `ended` after COMMIT or ROLLBACK, or after a BEGIN that failed. Any other statement as it is.
 */
function told(sqlText: string, statement: SqliteStatement, hooks: TransactionHooks): SqliteStatement {
  if (sqlText === BEGIN) {
    return {
      ...statement,
      run: (parameters) => {
        hooks.beginning();
        try {
          return statement.run(parameters);
        } catch (error) {
          hooks.ended();
          throw error;
        }
      },
    };
  }
  if (sqlText !== COMMIT && sqlText !== ROLLBACK) return statement;
  return {
    ...statement,
    run: (parameters) => {
      try {
        return statement.run(parameters);
      } finally {
        hooks.ended();
      }
    },
  };
}

function* mapped<T, U>(items: Iterable<T>, map: (item: T) => U): IterableIterator<U> {
  for (const item of items) yield map(item);
}

/**
 * Every transaction Kysely opens takes the write lock as it begins. The process writes through two connections
 * (the write thread's, and the request thread's for the delivery worker), and a transaction that has read and
 * then writes while the other holds the lock is refused at once, without waiting, because waiting could deadlock:
 * the conformance run through Prism met it as a 500 "database is locked". A transaction that takes the lock first
 * waits for it instead (`busy_timeout`). Transactions here are writes (`inTransaction`); reads run without one.
 */
const BEGIN = 'begin';
const BEGIN_WRITING = 'begin immediate';
const COMMIT = 'commit';
const ROLLBACK = 'rollback';

/**
 * Presents Node's built-in `node:sqlite` as the better-sqlite3-shaped database Kysely's SqliteDialect expects.
 * Prepared statements are cached per SQL text: Kysely compiles the same text for the same query shape.
 * `hooks` are told as each transaction begins and ends (the write thread's wait for the checkpointer).
 */
export function adaptNodeSqlite(database: DatabaseSync, hooks?: TransactionHooks): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  const wrap = (statement: StatementSync): SqliteStatement => {
    const columns = statement.columns();
    statement.setReturnArrays(true);
    const row = rowBuilder(columns.map((column) => column.name));
    const rows = (parameters: readonly unknown[]) =>
      statement.all(...parameters.map(toBindable)) as unknown as unknown[][];
    return {
      reader: columns.length > 0,
      all: (parameters) => rows(parameters).map(row),
      run: (parameters) => {
        const result = statement.run(...parameters.map(toBindable));
        return { changes: result.changes, lastInsertRowid: result.lastInsertRowid };
      },
      iterate: (parameters) =>
        mapped(statement.iterate(...parameters.map(toBindable)) as unknown as Iterable<unknown[]>, row),
    };
  };
  return {
    close: () => database.close(),
    prepare: (sqlText) => {
      let statement = cache.get(sqlText);
      if (!statement) {
        statement = wrap(database.prepare(sqlText === BEGIN ? BEGIN_WRITING : sqlText));
        if (hooks) statement = told(sqlText, statement, hooks);
        if (cache.size > 500) cache.clear();
        cache.set(sqlText, statement);
      }
      return statement;
    },
  };
}
