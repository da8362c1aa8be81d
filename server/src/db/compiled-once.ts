import { type Compilable, CompiledQuery, type Kysely } from 'kysely';
import { ANSWERED_LATER } from './pg-answered-later.ts';

/** Compiled SQL texts by dialect, then by what the statement is (its builder, or an insert's table and columns). */
const textsByDialect = new Map<unknown, Map<unknown, string>>();

/**
 * Runs the statement `shape` names with `parameters`, its SQL compiled by `compile` on its first run on this
 * dialect and kept: no query tree is built, frozen and compiled per request.
 */
async function runCompiled<DB, Result>(
  db: Kysely<DB>,
  shape: unknown,
  compile: () => string,
  parameters: readonly unknown[],
): Promise<Result[]> {
  // The pool and its transactions share one adapter class per dialect, so they share the text.
  const dialect = db.getExecutor().adapter.constructor;
  let texts = textsByDialect.get(dialect);
  if (texts === undefined) {
    texts = new Map();
    textsByDialect.set(dialect, texts);
  }
  let text = texts.get(shape);
  if (text === undefined) {
    text = compile();
    texts.set(shape, text);
  }
  const { rows } = await db.executeQuery(CompiledQuery.raw(text, [...parameters]) as CompiledQuery<Result>);
  return rows;
}

/**
 * A statement of the hot path whose SQL is compiled once per dialect and then run with each request's parameters.
 * `build` receives the handle and returns the query with placeholder values, in the order the parameters bind
 * to them.
 */
export function compiledOnce<DB, Result>(build: (db: Kysely<DB>) => Compilable<Result>) {
  return (db: Kysely<DB>, parameters: readonly unknown[]): Promise<Result[]> =>
    runCompiled<DB, Result>(db, build, () => build(db).compile().sql, parameters);
}

/**
 * An insert of one row whose SQL is compiled once per dialect, table and list of columns (those not undefined,
 * as Kysely leaves them out), then bound with the row's values in that order: a create builds no query tree.
 * `answeredLater` marks it `ANSWERED_LATER` (pg-answered-later.ts); the rows it gives back then name the statement.
 */
export function insertRow<DB>(
  db: Kysely<DB>,
  table: keyof DB & string,
  row: Record<string, unknown>,
  { answeredLater = false } = {},
): Promise<unknown[]> {
  const columns = Object.keys(row).filter((column) => row[column] !== undefined);
  const marker = answeredLater ? ANSWERED_LATER : '';
  return runCompiled(
    db,
    `${table}(${columns.join()})${marker}`,
    () =>
      db
        .insertInto(table)
        .values(row as never)
        .compile().sql + marker,
    columns.map((column) => row[column]),
  );
}
