import { type RawBuilder, type Selectable, type SelectQueryBuilder, sql } from 'kysely';
import type { components } from '../../../generated/openapi.ts';
import type { Database } from '../db/schema.ts';

export type Pagination = components['schemas']['Pagination'];

export interface PageRequest {
  page?: number | undefined;
  limit?: number | undefined;
}

/** The documented pagination object, and the row offset of the page. */
export function pageOf(request: PageRequest, total: number, defaultLimit = 20): Pagination & { offset: number } {
  const page = request.page ?? 1;
  const limit = request.limit ?? defaultLimit;
  // Any page past the end reads from `total` (an empty list), so a huge `page` never reaches SQL as an offset.
  const offset = Math.min((page - 1) * limit, total);
  return { page, limit, total, totalPages: Math.ceil(total / limit), offset };
}

export const paginationOf = ({ page, limit, total, totalPages }: Pagination): Pagination => ({
  page,
  limit,
  total,
  totalPages,
});

/**
 * A LIKE pattern matching text that contains `search` literally, case-insensitively (compare against
 * lower(column)): `%`, `_` and the escape character itself are escaped, with the ESCAPE clause both engines need
 * (SQLite has no default escape character).
 */
export const containsPattern = (search: string): RawBuilder<string> =>
  sql<string>`${`%${search.toLowerCase().replace(/[!%_]/g, '!$&')}%`} ESCAPE '!'`;

/**
 * How to read a page of a newest-first list cheaply: pages past the middle are read from the other end
 * (oldest first, a short offset, then reversed), so the last page costs what the first one does.
 */
export function readWindow({ offset, limit, total }: { offset: number; limit: number; total: number }) {
  const size = Math.max(0, Math.min(limit, total - offset));
  if (offset + size / 2 <= total / 2) return { newestFirst: true, offset, limit: size };
  return { newestFirst: false, offset: Math.max(0, total - offset - size), limit: size };
}

/** Tables whose rows carry the `id` and `created_at` of a store resource. */
type ResourceTable = {
  [T in keyof Database]: Database[T] extends { id: string; created_at: string } ? T : never;
}[keyof Database];

/**
 * A page of a filtered resource query, newest first (ties by id): the total of the filter and the rows of the page.
 * `tieBreak` keeps each list's established order among rows created in the same millisecond.
 */
export async function newestFirstPage<T extends ResourceTable>(
  query: SelectQueryBuilder<Database, T, object>,
  request: PageRequest,
  tieBreak: 'asc' | 'desc' = 'desc',
) {
  const counted = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const page = pageOf(request, Number(counted?.n ?? 0));
  const rows = await query
    .selectAll()
    .orderBy(sql.ref('created_at'), 'desc')
    .orderBy(sql.ref('id'), tieBreak)
    .limit(page.limit)
    .offset(page.offset)
    .execute();
  return { rows: rows as Selectable<Database[T]>[], page };
}
