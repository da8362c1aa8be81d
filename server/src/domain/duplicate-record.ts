/** A repository's answer to a write that a unique constraint of the store refused (slug, code, email, ...). */
export class DuplicateRecord extends Error {
  readonly table: string;

  constructor(table: string) {
    super(`duplicate record in ${table}`);
    this.table = table;
    this.name = 'DuplicateRecord';
  }
}
