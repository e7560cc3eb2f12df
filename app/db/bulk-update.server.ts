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
  const { shared, rows: own } = sharedFields(rows);
  return bulkUpdateFromJson(table, oneValueJson(own), build, shared);
}

/** The same UPDATE once per chunk of `rows` whose JSON fits the budget (chunkByBytes): run them in one batch(). */
export function bulkUpdateStatements<T extends SQLiteTable, R extends object>(
  table: T,
  rows: readonly R[],
  build: (j: JsonFields<R>) => BulkUpdate<T>,
  opts: { maxBytes?: number; maxRows?: number } = {},
): SQL[] {
  const { shared, rows: own } = sharedFields(rows);
  return Array.from(chunkByBytes(own, opts), (chunk) => bulkUpdateFromJson(table, chunk.json, build, shared));
}

function jsonFields<R extends object>(shared: Shared = NONE_SHARED): JsonFields<R> {
  return new Proxy({} as JsonFields<R>, {
    get(_, field) {
      if (typeof field !== "string" || !FIELD.test(field)) throw new Error(`bulkUpdateSql: bad field ${String(field)}`);
      // A value every row has alike is bound once (sharedFields), not read out of each row's JSON.
      if (shared.has(field)) {
        const v = shared.get(field);
        // D1 binds every number as REAL; json_extract gives an integer as INTEGER, and so does this.
        return typeof v === "number" && Number.isSafeInteger(v) ? sql`CAST(${v} AS INTEGER)` : sql`${v}`;
      }
      return sql.raw(`json_extract(j.value,'$.${field}')`);
    },
  });
}

type Shared = ReadonlyMap<string, string | number | null>;
const NONE_SHARED: Shared = new Map();
/** Bound parameters a statement may spend on shared values (D1 allows 100 per statement). */
const MAX_SHARED = 30;

/**
 * The fields that every row of `rows` has with the same string, finite number or null (a missing field counts as
 * null), when there are at least two rows: each is bound once as a parameter instead of repeated in every row's JSON
 * and read back with a json_extract per row (~0.6 µs each in SQLite; decision 083). A campaign step's 500 messages
 * share their channel, kind, campaign and text; a send batch's outcomes their status and provider. The rows are
 * returned without those fields. Booleans, objects and arrays stay in the JSON (json_extract gives them SQL forms a
 * bound value would not).
 */
export function sharedFields<R extends object>(rows: readonly R[]): { shared: Shared; rows: readonly object[] } {
  if (rows.length < 2) return { shared: NONE_SHARED, rows };
  const first = rows[0] as Record<string, unknown>;
  const keys = new Set<string>();
  for (const row of rows) for (const k in row) keys.add(k);
  const shared = new Map<string, string | number | null>();
  for (const k of keys) {
    if (shared.size === MAX_SHARED) break;
    const v = first[k] ?? null;
    if (!(v === null || typeof v === "string" || (typeof v === "number" && Number.isFinite(v)))) continue;
    if (rows.every((r) => ((r as Record<string, unknown>)[k] ?? null) === v)) shared.set(k, v);
  }
  if (shared.size === 0) return { shared: NONE_SHARED, rows };
  return {
    shared,
    rows: rows.map((r) => {
      const rest: Record<string, unknown> = {};
      for (const k in r) if (!shared.has(k)) rest[k] = (r as Record<string, unknown>)[k];
      return rest;
    }),
  };
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
  shared?: Shared,
): SQL {
  const { set, where, returning } = build(jsonFields<R>(shared));
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
  const { shared, rows: own } = sharedFields(rows);
  return bulkInsertFromJson(table, oneValueJson(own), build, shared);
}

/** The same INSERT once per chunk of `rows` whose JSON fits the budget (chunkByBytes): run them in one batch(). */
export function bulkInsertStatements<T extends SQLiteTable, R extends object>(
  table: T,
  rows: Iterable<R>,
  build: (j: JsonFields<R>) => BulkInsert<T>,
  opts: { maxBytes?: number; maxRows?: number } = {},
): SQL[] {
  // Rows from a generator stay lazy (a large import lets go of each chunk as it goes): only an array is looked over.
  if (!Array.isArray(rows))
    return Array.from(chunkByBytes(rows, opts), (chunk) => bulkInsertFromJson(table, chunk.json, build));
  const { shared, rows: own } = sharedFields(rows as readonly R[]);
  return Array.from(chunkByBytes(own, opts), (chunk) => bulkInsertFromJson(table, chunk.json, build, shared));
}

function bulkInsertFromJson<T extends SQLiteTable, R extends object>(
  table: T,
  json: string,
  build: (j: JsonFields<R>) => BulkInsert<T>,
  shared?: Shared,
): SQL {
  const { values, where, onConflict, returning } = build(jsonFields<R>(shared));
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
