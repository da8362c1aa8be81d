import { type Compilable, CompiledQuery, type Kysely } from 'kysely';

/**
 * A statement of the hot path whose SQL is compiled once per dialect and then run with each request's parameters:
 * no query tree is built, frozen and compiled per request. `build` receives the handle and returns the query with
 * placeholder values, in the order `run`'s parameters bind to them.
 */
export function compiledOnce<DB, Result>(build: (db: Kysely<DB>) => Compilable<Result>) {
  const textByDialect = new Map<unknown, string>();
  return async (db: Kysely<DB>, parameters: readonly unknown[]): Promise<Result[]> => {
    // The pool and its transactions share one adapter class per dialect, so they share the text.
    const dialect = db.getExecutor().adapter.constructor;
    let text = textByDialect.get(dialect);
    if (text === undefined) {
      text = build(db).compile().sql;
      textByDialect.set(dialect, text);
    }
    const { rows } = await db.executeQuery(CompiledQuery.raw(text, [...parameters]) as CompiledQuery<Result>);
    return rows;
  };
}

/** Insert texts by dialect, then by table and column list. */
const insertTexts = new Map<unknown, Map<string, string>>();

/**
 * An insert of one row whose SQL is compiled once per dialect, table and list of columns (those not undefined,
 * as Kysely leaves them out), then bound with the row's values in that order: a create builds no query tree.
 */
export async function insertRow<DB>(db: Kysely<DB>, table: keyof DB & string, row: Record<string, unknown>) {
  const columns = Object.keys(row).filter((column) => row[column] !== undefined);
  const dialect = db.getExecutor().adapter.constructor;
  let texts = insertTexts.get(dialect);
  if (texts === undefined) {
    texts = new Map();
    insertTexts.set(dialect, texts);
  }
  const shape = `${table}(${columns.join()})`;
  let text = texts.get(shape);
  if (text === undefined) {
    text = db
      .insertInto(table)
      .values(row as never)
      .compile().sql;
    texts.set(shape, text);
  }
  await db.executeQuery(
    CompiledQuery.raw(
      text,
      columns.map((column) => row[column]),
    ),
  );
}
