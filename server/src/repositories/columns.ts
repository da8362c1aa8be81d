// Conversions of the repositories not yet moved into resources/ (which use db/column-codecs.ts).

/** Money is kept as the exact decimal text of the number sent: 19.9 is stored "19.9" and read back 19.9. */
export const moneyColumn = (value: number): string => String(value);
export const nullableMoneyColumn = (value: number | null | undefined): string | null =>
  value === null || value === undefined ? null : String(value);
export const money = (column: string): number => Number(column);
export const nullableMoney = (column: string | null): number | null => (column === null ? null : Number(column));

export const flagColumn = (value: boolean): number => (value ? 1 : 0);
export const flag = (column: number | boolean): boolean => column === 1 || column === true;

export const jsonColumn = (value: unknown): string => JSON.stringify(value);
export const nullableJsonColumn = (value: unknown): string | null =>
  value === null || value === undefined ? null : JSON.stringify(value);
export const json = <T>(column: string): T => JSON.parse(column) as T;
export const nullableJson = <T>(column: string | null): T | null =>
  column === null ? null : (JSON.parse(column) as T);
