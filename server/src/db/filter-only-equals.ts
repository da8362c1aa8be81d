/**
 * `IS NOT DISTINCT FROM`, for the conditions of a look-up by key (`id`) that are only checked on the row the key
 * found, such as its store. For a NOT NULL column it means `=`, but no index can serve it, so the key's own index is
 * the only way to the row. On PostgreSQL a prepared statement settles on one generic plan per connection, often made
 * while a table is still small (database.ts): with a plain `store_id = ?` that plan may take
 * a store index instead of the key's, and then read the whole store on every look-up as the store grows
 * (pg-plans.test.ts). Lists keep `=`: for them a store index is the right way in.
 */
export const FILTER_ONLY_EQUALS = 'is not distinct from';
