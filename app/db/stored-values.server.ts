import { sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";

// A builder selection maps a utc() column to a Date and a bool() column to a boolean. Readers that hand the stored
// number on (epoch milliseconds in JSON, 0/1 flags a screen compares) select it through these: the type still comes
// from the column (null only where the column is nullable), so a renamed or dropped column fails to compile.

type Stored<C extends SQLiteColumn> = C["_"]["notNull"] extends true ? number : number | null;

/** A utc() column as its stored epoch milliseconds. */
export const epochMs = <C extends SQLiteColumn>(column: C): SQL<Stored<C>> => sql<Stored<C>>`${column}`;

/** A bool() column as its stored 0/1. */
export const storedBit = <C extends SQLiteColumn>(column: C): SQL<Stored<C>> => sql<Stored<C>>`${column}`;
