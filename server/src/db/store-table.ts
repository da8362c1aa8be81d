import { type Kysely, type RawBuilder, type Selectable, type SelectQueryBuilder, sql } from 'kysely';
import type { components } from '../../../generated/openapi.ts';
import { contractCount } from '../contract.ts';
import { DuplicateRecord } from '../domain/duplicate-record.ts';
import type { Database } from '../resources/index.ts';
import { type ColumnCodec, flag } from './column-codecs.ts';
import { compiledOnce, insertRow } from './compiled-once.ts';
import { FILTER_ONLY_EQUALS } from './filter-only-equals.ts';
import { type AnsweredLater, answeredLaterOf } from './pg-answered-later.ts';
import { isUniqueViolation } from './unique-violation.ts';

export type Pagination = components['schemas']['Pagination'];

export interface PageRequest {
  page?: number | undefined;
  limit?: number | undefined;
}

/** The tables of store resources: rows carrying `id`, `store_id` and `created_at`. */
/** The same statements for every store table; only ever given column names that come from the table's own type. */
type AnyStoreRow = { id: string; store_id: string; created_at: string } & Record<string, unknown>;

type StoreTableName = {
  [T in keyof Database]: Database[T] extends { id: string; store_id: string; created_at: string } ? T : never;
}[keyof Database];

type Row<T extends StoreTableName> = Selectable<Database[T]>;

type AnyStoreTables = Record<string, AnyStoreRow>;

/**
 * The record methods `operations` hands out, in the order it takes the operation names. A create's insert is
 * answered later (PostgreSQL, see `insertAnsweredLater`): every create handler does nothing after it but more
 * statements of its transaction.
 */
const crud = ['insertAnsweredLater', 'find', 'replace', 'delete'] as const;
type Crud = { [Index in '0' | '1' | '2' | '3']: (typeof crud)[Index] };
/** The methods `operations(...names)` answers: each operation name mapped to the record method at its position. */
type Named<Names extends readonly (string | undefined)[], Records> = {
  [Index in keyof Crud & keyof Names as Names[Index] & string]: Records[Crud[Index] & keyof Records];
};

/** `SELECT * FROM <table> WHERE store_id IS NOT DISTINCT FROM ? AND id = ?`, compiled once per table and dialect. */
const findStatements = new Map<string, ReturnType<typeof compiledOnce<AnyStoreTables, AnyStoreRow>>>();
function findStatement(table: string) {
  let statement = findStatements.get(table);
  if (!statement) {
    statement = compiledOnce<AnyStoreTables, AnyStoreRow>((db) =>
      db.selectFrom(table).selectAll().where('store_id', FILTER_ONLY_EQUALS, '').where('id', '=', ''),
    );
    findStatements.set(table, statement);
  }
  return statement;
}

/** The columns that need converting, each with its codec; every other column is copied as it is. */
type Codec<T extends StoreTableName> = {
  [Column in keyof Row<T>]?: { toColumn(value: never): Row<T>[Column]; fromColumn(column: Row<T>[Column]): unknown };
};

type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;
type ValueOf<C> = C extends { fromColumn(column: never): infer Value } ? Value : never;

/**
 * A row as the resource sees it: column names in camelCase (those in `Keep` as they are, for wire fields the
 * source documentation spells in snake_case) and the values the codec converts.
 */
export type StoredOf<T extends StoreTableName, C extends Codec<T>, Keep extends string = never> = {
  [Column in keyof Row<T> & string as Column extends Keep ? Column : CamelCase<Column>]: Column extends keyof C
    ? ValueOf<NonNullable<C[Column]>>
    : Row<T>[Column];
};

/** The contract's `page` and `limit` defaults (the validator fills them; a direct call may leave them out). */
const FIRST_PAGE = contractCount('#/components/parameters/Page/schema/default');
const PAGE_SIZE = contractCount('#/components/parameters/Limit/schema/default');

/** The documented pagination object, and the row offset of the page. */
export function pageOf(request: PageRequest, total: number): Pagination & { offset: number } {
  const page = request.page ?? FIRST_PAGE;
  const limit = request.limit ?? PAGE_SIZE;
  // Any page past the end reads from `total` (an empty list), so a huge `page` never reaches SQL as an offset.
  const offset = Math.min((page - 1) * limit, total);
  return { page, limit, total, totalPages: Math.ceil(total / limit), offset };
}

/**
 * A LIKE pattern matching text that contains `search` literally, case-insensitively (compare against
 * lower(column)): `%`, `_` and the escape character itself are escaped, with the ESCAPE clause both engines need
 * (SQLite has no default escape character).
 */
export const containsPattern = (search: string): RawBuilder<string> =>
  sql<string>`${`%${search.toLowerCase().replace(/[!%_]/g, '!$&')}%`} ESCAPE '!'`;

/**
 * `rows` narrowed as a list's query asks: each column equal to its value (an undefined value narrows nothing; a
 * boolean compares with the 0/1 of a flag column) and, given a search text, any of the `searchIn` columns
 * containing it, case-insensitively.
 */
export function filtered<T extends StoreTableName>(
  rows: SelectQueryBuilder<Database, T, object>,
  equal: Partial<Record<keyof Row<T> & string, string | number | boolean | undefined>>,
  search: { text?: string | undefined; searchIn?: readonly (keyof Row<T> & string)[] } = {},
): SelectQueryBuilder<Database, T, object> {
  let narrowed = rows;
  for (const [column, value] of Object.entries(equal)) {
    if (value === undefined) continue;
    narrowed = narrowed.where(sql.ref(column), '=', typeof value === 'boolean' ? flag.toColumn(value) : value);
  }
  const { text, searchIn = [] } = search;
  if (text) {
    const pattern = containsPattern(text);
    narrowed = narrowed.where((eb) =>
      eb.or(searchIn.map((column) => eb(sql`lower(${sql.ref(column)})`, 'like', pattern))),
    );
  }
  return narrowed;
}

/**
 * A list's order: `'desc'`/`'asc'` for newest first with ties by id in that direction (each list keeps its
 * established order among rows created in the same millisecond), or the columns to sort by.
 */
type PageOrder<Column extends string = string> =
  | 'asc'
  | 'desc'
  | readonly (readonly [column: Column, direction: 'asc' | 'desc'])[];

/** A page of a filtered store query in the given order: the total of the filter and the rows of the page. */
export async function newestFirstPage<T extends StoreTableName>(
  query: SelectQueryBuilder<Database, T, object>,
  request: PageRequest,
  order: PageOrder = 'desc',
) {
  const counted = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  const { offset, ...pagination } = pageOf(request, Number(counted?.n ?? 0));
  const columns =
    typeof order === 'string'
      ? ([
          ['created_at', 'desc'],
          ['id', order],
        ] as const)
      : order;
  let rows = query.selectAll();
  for (const [column, direction] of columns) rows = rows.orderBy(sql.ref(column), direction);
  // selectAll() of a single-table query is exactly that table's row.
  return { rows: (await rows.limit(pagination.limit).offset(offset).execute()) as Row<T>[], pagination };
}

/**
 * How to read a page of a newest-first list cheaply: pages past the middle are read from the other end
 * (oldest first, a short offset, then reversed), so the last page costs what the first one does.
 */
export function readWindow({ offset, limit, total }: { offset: number; limit: number; total: number }) {
  const size = Math.max(0, Math.min(limit, total - offset));
  if (offset + size / 2 <= total / 2) return { newestFirst: true, offset, limit: size };
  return { newestFirst: false, offset: Math.max(0, total - offset - size), limit: size };
}

const camelCased = new Map<string, string>();
const snakeCased = new Map<string, string>();
const fieldName = (column: string): string => {
  let name = camelCased.get(column);
  if (name === undefined) {
    name = column.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
    camelCased.set(column, name);
  }
  return name;
};
const columnName = (field: string): string => {
  let name = snakeCased.get(field);
  if (name === undefined) {
    name = field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
    snakeCased.set(field, name);
  }
  return name;
};

type Decoder = (row: Record<string, unknown>) => Record<string, unknown>;

/**
 * A row-to-record function for rows with exactly these columns, compiled once: an object literal of one shape
 * instead of a loop over the row's entries on every read (reads are most of the traffic; a list decodes 50 rows).
 * Column names come from the schema and are quoted with JSON.stringify.
 */
function compileDecoder(
  columns: string[],
  columnCodecs: Record<string, ColumnCodec<unknown, unknown> | undefined>,
  keep: ReadonlySet<string>,
): Decoder {
  const fields = columns.map((column) => {
    const value = `row[${JSON.stringify(column)}]`;
    const field = JSON.stringify(keep.has(column) ? column : fieldName(column));
    return `${field}: ${columnCodecs[column] ? `codecs[${JSON.stringify(column)}].fromColumn(${value})` : value}`;
  });
  return new Function('codecs', `return (row) => ({ ${fields.join(', ')} });`)(columnCodecs) as Decoder;
}

/**
 * Rows to records and back: the columns `codec` names are converted, every other one copied, its name
 * camelCased (but for the `keep` ones, which the record names in snake_case as the contract does).
 */
function rowCodec<R, Stored>(codec: object, keep: ReadonlySet<string>) {
  const columnCodecs = codec as Record<string, ColumnCodec<unknown, unknown> | undefined>;
  // By the row's column list: a table is read with `select *`, so there is one, or a few.
  const decoders = new Map<string, Decoder>();
  const decoderOf = (row: R): Decoder => {
    const columns = Object.keys(row as object);
    const shape = columns.join();
    let decoder = decoders.get(shape);
    if (decoder === undefined) {
      decoder = compileDecoder(columns, columnCodecs, keep);
      decoders.set(shape, decoder);
    }
    return decoder;
  };
  return {
    decode: (row: R): Stored => decoderOf(row)(row as Record<string, unknown>) as Stored,
    /** The rows of one result, which all have its columns: the decoder is looked up once, not per row. */
    decodeAll(rows: readonly R[]): Stored[] {
      const [first] = rows;
      if (first === undefined) return [];
      const decoder = decoderOf(first);
      return rows.map((row) => decoder(row as Record<string, unknown>) as Stored);
    },
    encode(stored: Stored): AnyStoreRow {
      const row: Record<string, unknown> = {};
      for (const [field, value] of Object.entries(stored as Record<string, unknown>)) {
        const column = keep.has(field) ? field : columnName(field);
        const convert = columnCodecs[column];
        row[column] = convert ? convert.toColumn(value) : value;
      }
      return row as AnyStoreRow;
    },
  };
}

/** A failure of a write to `table`, as its callers see it: a unique constraint's refusal is `DuplicateRecord`. */
const failureIn = (table: string) => (error: unknown) =>
  isUniqueViolation(error) ? new DuplicateRecord(table, error) : error;

/** A write that a unique constraint of `table` refuses throws `DuplicateRecord`. */
async function refusingDuplicatesIn<R>(table: string, write: Promise<R>): Promise<R> {
  try {
    return await write;
  } catch (error) {
    throw failureIn(table)(error);
  }
}

/** Insert / find / replace / delete of one store table's records, by (store, id). */
function storeRecords<Stored>(
  rows: Kysely<AnyStoreTables>,
  table: string,
  { encode, decode }: { encode: (stored: Stored) => AnyStoreRow; decode: (row: AnyStoreRow) => Stored },
) {
  const findRow = findStatement(table);
  const refusingDuplicates = <R>(write: Promise<R>) => refusingDuplicatesIn(table, write);
  return {
    async insert(stored: Stored): Promise<void> {
      await refusingDuplicates(insertRow(rows, table as StoreTableName, encode(stored)));
    },

    /**
     * `insert`, sent without waiting inside a PostgreSQL transaction (pg-answered-later.ts): a unique constraint's
     * refusal is then reported, as `DuplicateRecord`, by the transaction's next statement, and the statement is
     * given back for its caller to say what that means (`duplicateAs`). Awaited, as `insert`, everywhere else.
     */
    async insertAnsweredLater(stored: Stored): Promise<AnsweredLater | undefined> {
      const inserted = await refusingDuplicates(
        insertRow(rows, table as StoreTableName, encode(stored), { answeredLater: true }),
      );
      const statement = answeredLaterOf(inserted);
      statement?.failsAs(failureIn(table));
      return statement;
    },

    async find(storeId: string, id: string): Promise<Stored | undefined> {
      const [row] = await findRow(rows, [storeId, id]);
      return row && decode(row);
    },

    /** Writes every column but the key and `created_at`. */
    async replace(stored: Stored): Promise<void> {
      const { id, store_id, created_at: _created, ...changes } = encode(stored);
      await refusingDuplicates(
        rows
          .updateTable(table)
          .set(changes)
          .where('store_id', FILTER_ONLY_EQUALS, store_id)
          .where('id', '=', id)
          .execute(),
      );
    },

    async delete(storeId: string, id: string): Promise<boolean> {
      const result = await rows
        .deleteFrom(table)
        .where('store_id', FILTER_ONLY_EQUALS, storeId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}

/**
 * Insert / find / replace / delete / newest-first page of one store-scoped table, by (store, id). Another store's
 * id is indistinguishable from an unknown one. A write that a unique constraint refuses throws `DuplicateRecord`.
 */
export function storeTable<T extends StoreTableName, C extends Codec<T>, Keep extends string = never>(
  db: Kysely<Database>,
  table: T,
  codec: C,
  options: { snakeCaseFields?: readonly Keep[] } = {},
) {
  type Stored = StoredOf<T, C, Keep>;
  // Kysely cannot resolve column names of a table chosen by a type parameter; the statements below only name the
  // columns every store table has, and rows pass through `encode`/`decode`, which the Stored type keeps exact.
  const rows = db as unknown as Kysely<AnyStoreTables>;
  const name: string = table;

  const { decode, decodeAll, encode } = rowCodec<Row<T>, Stored>(codec, new Set<string>(options.snakeCaseFields ?? []));
  const records = storeRecords<Stored>(rows, table, {
    encode,
    decode: (row) => decode(row as Row<T>),
  });
  type Records = typeof records;
  type Column = keyof Row<T> & string;

  /** A page of the store's rows, narrowed by `filter` (the list's query parameters), newest first by default. */
  async function page(
    storeId: string,
    request: PageRequest,
    filter: (query: SelectQueryBuilder<Database, T, object>) => SelectQueryBuilder<Database, T, object> = (q) => q,
    order: PageOrder<Column> = 'desc',
  ): Promise<{ records: Stored[]; pagination: Pagination }> {
    const scoped = rows.selectFrom(name).where('store_id', '=', storeId);
    const query = filter(scoped as unknown as SelectQueryBuilder<Database, T, object>);
    const { rows: found, pagination } = await newestFirstPage(query, request, order);
    return { records: decodeAll(found), pagination };
  }

  return {
    decode,
    decodeAll,
    ...records,
    page,

    /**
     * The repository methods named after the operations they serve, in the order insert (answered later), find,
     * replace, delete (as many as the resource has): `operations('create<Name>', 'get<Name>ById', 'update<Name>')`.
     */
    operations<const Names extends readonly [string, string?, string?, string?]>(
      ...names: Names
    ): Named<Names, Records> {
      const methods: Record<string, Records[keyof Records]> = {};
      crud.forEach((method, index) => {
        const operation = names[index];
        if (operation) methods[operation] = records[method];
      });
      return methods as Named<Names, Records>;
    },

    /**
     * A list operation answering `{ [key]: records, pagination }`: the rows whose columns equal what `equal` reads
     * from the query (see `filtered`), and whose `searchIn` columns contain the query's `search`, in `order`.
     */
    list<Key extends string, Query extends PageRequest & { search?: string | undefined }>(
      key: Key,
      equal: (query: Query) => Partial<Record<Column, string | number | boolean | undefined>>,
      options: { searchIn?: readonly Column[]; order?: PageOrder<Column> } = {},
    ) {
      return async (storeId: string, query: Query) => {
        const filter = (rows: SelectQueryBuilder<Database, T, object>) =>
          filtered(rows, equal(query), { text: options.searchIn && query.search, searchIn: options.searchIn });
        const { records: listed, pagination } = await page(storeId, query, filter, options.order);
        return { [key]: listed, pagination } as { [K in Key]: Stored[] } & { pagination: Pagination };
      };
    },
  };
}
