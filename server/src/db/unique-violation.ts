/** True for a unique-constraint violation on either engine (PostgreSQL 23505, SQLite SQLITE_CONSTRAINT_UNIQUE). */
export function isUniqueViolation(error: unknown): boolean {
  const candidate = error as { code?: unknown; errcode?: unknown; message?: unknown };
  if (candidate?.code === '23505') return true;
  if (candidate?.errcode === 2067 || candidate?.errcode === 1555) return true;
  return typeof candidate?.message === 'string' && candidate.message.includes('UNIQUE constraint failed');
}
