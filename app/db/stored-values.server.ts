import { sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

// A builder selection maps a utc() column to a Date, a bool() column to a boolean and a JSON column to its parsed
// value. Readers that hand the stored value on (epoch milliseconds in JSON, 0/1 flags a screen compares, JSON text
// parsed leniently) select it through these: the type still comes from the column (its driver type, null only where
// the column is nullable), so a renamed or dropped column fails to compile.

type Stored<C extends SQLiteColumn> = C["_"]["notNull"] extends true
  ? C["_"]["driverParam"]
  : C["_"]["driverParam"] | null;

/** The column's value as SQLite stores it. */
export const stored = <C extends SQLiteColumn>(column: C): SQL<Stored<C>> => sql<Stored<C>>`${column}`;

/** A utc() column as its stored epoch milliseconds. */
export const epochMs = stored;

/** A bool() column as its stored 0/1. */
export const storedBit = stored;
