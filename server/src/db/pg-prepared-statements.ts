import { createHash } from 'node:crypto';
import pg from 'pg';

/** Distinct statements one connection keeps prepared; past it, the rest run unnamed (a list's `IN (…)` varies). */
const PREPARED_PER_CONNECTION_MAX = 500;

/** Kysely writes a page's bound as `limit $n`. */
const PAGES = / limit \$\d/;

type Query = (text: unknown, values?: unknown, callback?: unknown) => unknown;

/** A statement's name by its text, or null for one that pages (both found once per text, not per query). */
const names = new Map<string, string | null>();
function nameOf(text: string): string | null {
  let name = names.get(text);
  if (name === undefined) {
    name = PAGES.test(text) ? null : `sf_${createHash('sha1').update(text).digest('base64url')}`;
    if (names.size >= PREPARED_PER_CONNECTION_MAX * 4) names.clear();
    names.set(text, name);
  }
  return name;
}

/** What pg's `Query` reads that @types/pg does not declare: the statement's name, and the callback it answers. */
interface NamedQuery extends pg.Query {
  name?: string;
  callback?: unknown;
}

/**
 * Sends the statement `name` as pg's own `Query`, made from its text and then named: pg copies a query given as a
 * config object (`cloneQueryConfig`, property by property, about 2 µs a statement), a text it does not.
 */
function sendNamed(query: Query, name: string, text: string, values: unknown[], callback: unknown): unknown {
  const statement: NamedQuery = new pg.Query(text, values);
  statement.name = name;
  if (callback !== undefined) {
    statement.callback = callback;
    return query(statement);
  }
  return new Promise((resolve, reject) => {
    statement.callback = (error: Error | undefined, result: unknown) => (error ? reject(error) : resolve(result));
    query(statement);
  });
}

/**
 * Makes a pooled connection prepare each parameterised statement once and reuse it by name, as the embedded
 * store's adapter caches statements by SQL text: PostgreSQL then parses the hot statements once per connection and,
 * after five executions, plans them once too (database.ts). A statement that pages (`limit`) runs unnamed, planned
 * for its values every time: how it should read a store (an index in order, or a sort of what matched) depends on
 * how far it reads and on how large the store has grown, which a plan made once cannot follow.
 * Statements without parameters (migrations, several commands in one text) run as before.
 */
export function prepareStatements(client: pg.ClientBase): void {
  const query = client.query.bind(client) as Query;
  const prepared = new Set<string>();
  const named: Query = (text, values, callback) => {
    if (typeof text !== 'string' || !Array.isArray(values) || values.length === 0) {
      return query(text, values, callback);
    }
    const name = nameOf(text);
    if (name === null) return query(text, values, callback);
    if (!prepared.has(name)) {
      if (prepared.size >= PREPARED_PER_CONNECTION_MAX) return query(text, values, callback);
      prepared.add(name);
    }
    return sendNamed(query, name, text, values, callback);
  };
  client.query = named as typeof client.query;
}
