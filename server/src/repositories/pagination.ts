import type { components } from '../../../generated/openapi.ts';

export type Pagination = components['schemas']['Pagination'];

export interface PageRequest {
  page?: number | undefined;
  limit?: number | undefined;
}

/** The documented pagination object, and the row offset of the page. */
export function pageOf(request: PageRequest, total: number, defaultLimit = 20): Pagination & { offset: number } {
  const page = request.page ?? 1;
  const limit = request.limit ?? defaultLimit;
  return { page, limit, total, totalPages: Math.ceil(total / limit), offset: (page - 1) * limit };
}

export const paginationOf = ({ page, limit, total, totalPages }: Pagination): Pagination => ({
  page,
  limit,
  total,
  totalPages,
});

/** A LIKE pattern matching text that contains `search`, case-insensitively (compare against lower(column)). */
export const containsPattern = (search: string): string => `%${search.toLowerCase().replace(/[%_\\]/g, '')}%`;
