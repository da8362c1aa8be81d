/** A repository's answer to a write that a unique constraint of the store refused (slug, code, email, ...). */
export class DuplicateRecord extends Error {
  readonly table: string;

  /** `cause`: the database's own refusal. */
  constructor(table: string, cause?: unknown) {
    super(`duplicate record in ${table}`, { cause });
    this.table = table;
    this.name = 'DuplicateRecord';
  }
}
