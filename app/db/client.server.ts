import { drizzle, type DrizzleD1Database } from "drizzle-orm/d1";
import * as schema from "./schema";

export type Db = DrizzleD1Database<typeof schema>;

export function createDb(d1: D1Database): Db {
  return drizzle(d1, { schema });
}

/** D1 allows 100 bound parameters per statement: rows per multi-row INSERT for a given column count. */
export function rowsPerInsert(columnCount: number, maxParams = 100): number {
  return Math.max(1, Math.floor(maxParams / columnCount));
}

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
