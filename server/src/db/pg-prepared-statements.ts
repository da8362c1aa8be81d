import { createHash } from 'node:crypto';
import type pg from 'pg';

/** Distinct statements one connection keeps prepared; past it, the rest run unnamed (a list's `IN (…)` varies). */
const PREPARED_PER_CONNECTION_MAX = 500;

/** Kysely writes a page's bound as `limit $n`. */
const PAGES = / limit \$\d/;

type Query = (text: unknown, values?: unknown, callback?: unknown) => unknown;

/** A statement's name, by its text (hashed once per text, not per query). */
const names = new Map<string, string>();
function nameOf(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `sf_${createHash('sha1').update(text).digest('base64url')}`;
    if (names.size >= PREPARED_PER_CONNECTION_MAX * 4) names.clear();
    names.set(text, name);
  }
  return name;
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
    if (typeof text !== 'string' || !Array.isArray(values) || values.length === 0 || PAGES.test(text)) {
      return query(text, values, callback);
    }
    const name = nameOf(text);
    if (!prepared.has(name)) {
      if (prepared.size >= PREPARED_PER_CONNECTION_MAX) return query(text, values, callback);
      prepared.add(name);
    }
    return query({ name, text, values }, callback);
  };
  client.query = named as typeof client.query;
}
