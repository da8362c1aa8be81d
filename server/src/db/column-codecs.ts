// Conversions between contract values and the portable column types of server/migrations: money is the exact
// decimal text of the number sent (19.9 is stored "19.9" and read back 19.9), JSON is text, flags are 0/1.

/** How one column converts: the value a record holds and the value the column stores. */
export interface ColumnCodec<Value, Column> {
  toColumn(value: Value): Column;
  fromColumn(column: Column): Value;
}

export const money: ColumnCodec<number, string> = { toColumn: String, fromColumn: Number };

export const nullableMoney: ColumnCodec<number | null, string | null> = {
  // A field the record left out (undefined) is stored as NULL, as the handlers' `?? null` used to say.
  toColumn: (value) => (value === null || value === undefined ? null : String(value)),
  fromColumn: (column) => (column === null ? null : Number(column)),
};

/** PostgreSQL's driver answers an INTEGER 0/1; a boolean is accepted too. */
export const flag: ColumnCodec<boolean, number> = {
  toColumn: (value) => (value ? 1 : 0),
  fromColumn: (column) => column === 1 || (column as number | boolean) === true,
};

export const json = <Value>(): ColumnCodec<Value, string> => ({
  toColumn: (value) => JSON.stringify(value),
  fromColumn: (column) => JSON.parse(column) as Value,
});

export const nullableJson = <Value>(): ColumnCodec<Value | null, string | null> => ({
  toColumn: (value) => (value === null || value === undefined ? null : JSON.stringify(value)),
  fromColumn: (column) => (column === null ? null : (JSON.parse(column) as Value)),
});
