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
