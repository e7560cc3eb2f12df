import { getTableColumns, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { AppError } from "~/lib/app-error";
import { chunkByBytes, D1_VALUE_BUDGET } from "./chunk-by-bytes.server";
import { formatCount } from "~/lib/format-count";

// Many rows, each with its own new values, in ONE statement with ONE bound parameter: the rows travel as a
// JSON array read with json_each (D1 caps bound parameters at 100, and a bound value at 2 MB).
//
//   UPDATE <table> SET <col> = <expr>, … FROM json_each(?) AS j WHERE <where> [RETURNING …]
//
// `build` receives one SQL expression per field of the row type (`json_extract(j.value,'$.<field>')`) and
// returns the SET list keyed by the table's own (camelCase) column names, so a misspelt column is a type error.
// Rows whose size depends on their content go through `bulkUpdateStatements`: one statement per ~1 MB of rows
// (chunkByBytes), to run in the same batch().

const FIELD = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `json_extract(j.value,'$.<field>')` for every field of R. */
export type JsonFields<R> = { readonly [K in keyof R]-?: SQL };

export type BulkUpdate<T extends SQLiteTable> = {
  set: Partial<Record<keyof T["$inferSelect"] & string, SQL | number | string | null>>;
  /** Joins each JSON row to its target row, plus any guard (e.g. `+status = 'queued'` to stay on the primary key). */
  where: SQL;
  returning?: SQL;
};

/** `rows` as one JSON value, or a payload_too_large AppError when they are over D1_VALUE_BUDGET bytes. */
function oneValueJson(rows: readonly object[]): string {
  const chunks = chunkByBytes(rows);
  const first = chunks.next();
  if (!first.done && !chunks.next().done) {
    throw new AppError(
      "payload_too_large",
      `${formatCount(rows.length)} rows are more than one database value of ${formatCount(D1_VALUE_BUDGET)} bytes may hold`,
    );
  }
  return first.done ? "[]" : first.value.json;
}

/** One statement for all `rows`; a payload_too_large AppError if their JSON is over D1_VALUE_BUDGET bytes. */
export function bulkUpdateSql<T extends SQLiteTable, R extends object>(
  table: T,
  rows: readonly R[],
  build: (j: JsonFields<R>) => BulkUpdate<T>,
): SQL {
  return bulkUpdateFromJson(table, oneValueJson(rows), build);
}

/** The same UPDATE once per chunk of `rows` whose JSON fits the budget (chunkByBytes): run them in one batch(). */
export function bulkUpdateStatements<T extends SQLiteTable, R extends object>(
  table: T,
  rows: readonly R[],
  build: (j: JsonFields<R>) => BulkUpdate<T>,
  opts: { maxBytes?: number; maxRows?: number } = {},
): SQL[] {
  return Array.from(chunkByBytes(rows, opts), (chunk) => bulkUpdateFromJson(table, chunk.json, build));
}

function jsonFields<R extends object>(): JsonFields<R> {
  return new Proxy({} as JsonFields<R>, {
    get(_, field) {
      if (typeof field !== "string" || !FIELD.test(field)) throw new Error(`bulkUpdateSql: bad field ${String(field)}`);
      return sql.raw(`json_extract(j.value,'$.${field}')`);
    },
  });
}

/** The (camelCase) keys of `values` as the table's SQL column identifiers; an unknown key is a programming error. */
function byColumnName(table: SQLiteTable, values: Record<string, unknown>, helper: string) {
  const columns = getTableColumns(table) as Record<string, { name: string }>;
  return Object.entries(values).map(([key, value]) => {
    const column = columns[key];
    if (!column) throw new Error(`${helper}: ${key} is not a column`);
    return [sql.identifier(column.name), value] as const;
  });
}

function bulkUpdateFromJson<T extends SQLiteTable, R extends object>(
  table: T,
  json: string,
  build: (j: JsonFields<R>) => BulkUpdate<T>,
): SQL {
  const { set, where, returning } = build(jsonFields<R>());
  const assignments = byColumnName(table, set, "bulkUpdateSql").map(([column, value]) => sql`${column} = ${value}`);
  // raw-sql: typed-helper
  return sql`UPDATE ${table} SET ${sql.join(assignments, sql`, `)} FROM json_each(${json}) AS j WHERE ${where}${
    returning ? sql` RETURNING ${returning}` : sql``
  }`;
}

// The same one-parameter rule for lists and inserts (decision 031): a list of values is one JSON parameter read with
// json_each, and rows to insert are one JSON array whose fields become the table's columns.

/** `<column> IN (SELECT value FROM json_each(?))`: any number of values in one bound parameter, typed by the column. */
export function inJson<C extends SQLiteColumn>(column: C, values: readonly C["_"]["data"][]): SQL {
  return sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(values)}))`;
}

export type BulkInsert<T extends SQLiteTable> = {
  /** One SQL expression (usually a field of the JSON row) per column to write, keyed by the table's column names. */
  values: Partial<Record<keyof T["$inferInsert"] & string, SQL | number | string | null>>;
  /** Rows to leave out, e.g. `NOT EXISTS (…)`. */
  where?: SQL;
  /** e.g. `ON CONFLICT (…) DO NOTHING` or `DO UPDATE SET …`. */
  onConflict?: SQL;
  returning?: SQL;
};

/** INSERT INTO <table> (<cols>) SELECT <exprs> FROM json_each(?) AS j [WHERE …] [ON CONFLICT …] [RETURNING …]. */
export function bulkInsertSql<T extends SQLiteTable, R extends object>(
  table: T,
  rows: readonly R[],
  build: (j: JsonFields<R>) => BulkInsert<T>,
): SQL {
  return bulkInsertFromJson(table, oneValueJson(rows), build);
}

/** The same INSERT once per chunk of `rows` whose JSON fits the budget (chunkByBytes): run them in one batch(). */
export function bulkInsertStatements<T extends SQLiteTable, R extends object>(
  table: T,
  rows: Iterable<R>,
  build: (j: JsonFields<R>) => BulkInsert<T>,
  opts: { maxBytes?: number; maxRows?: number } = {},
): SQL[] {
  return Array.from(chunkByBytes(rows, opts), (chunk) => bulkInsertFromJson(table, chunk.json, build));
}

function bulkInsertFromJson<T extends SQLiteTable, R extends object>(
  table: T,
  json: string,
  build: (j: JsonFields<R>) => BulkInsert<T>,
): SQL {
  const { values, where, onConflict, returning } = build(jsonFields<R>());
  const entries = byColumnName(table, values, "bulkInsertSql");
  // `WHERE true` keeps SQLite from reading ON CONFLICT as a join constraint of the SELECT (its documented parsing ambiguity).
  // raw-sql: typed-helper
  return sql`INSERT INTO ${table} (${sql.join(
    entries.map(([c]) => c),
    sql`, `,
  )}) SELECT ${sql.join(
    entries.map(([, v]) => sql`${v}`),
    sql`, `,
  )} FROM json_each(${json}) AS j WHERE ${where ?? sql`true`}${onConflict ? sql` ${onConflict}` : sql``}${returning ? sql` RETURNING ${returning}` : sql``}`;
}
