import type { Pagination } from '../db/store-table.ts';

// The paging vocabulary of the repositories not yet moved into resources/ (which page through db/store-table.ts).

export {
  containsPattern,
  newestFirstPage,
  type PageRequest,
  type Pagination,
  pageOf,
} from '../db/store-table.ts';

export const paginationOf = ({ page, limit, total, totalPages }: Pagination): Pagination => ({
  page,
  limit,
  total,
  totalPages,
});

/**
 * How to read a page of a newest-first list cheaply: pages past the middle are read from the other end
 * (oldest first, a short offset, then reversed), so the last page costs what the first one does.
 */
export function readWindow({ offset, limit, total }: { offset: number; limit: number; total: number }) {
  const size = Math.max(0, Math.min(limit, total - offset));
  if (offset + size / 2 <= total / 2) return { newestFirst: true, offset, limit: size };
  return { newestFirst: false, offset: Math.max(0, total - offset - size), limit: size };
}
