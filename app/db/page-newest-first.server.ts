import { and, desc, eq, lt, type InferSelectModel } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "./client.server";

export type PageOpts = { after?: number | null; limit?: number };

/**
 * One page of a table newest first, keyset-paged on its integer primary key (`after` = the last id seen), so every
 * page costs the same at any depth. `limit` is clamped to 1…`max`; one extra row tells whether there is a next page.
 * Each row goes out through `view` (the table's public shape).
 */
export async function pageNewestFirst<T extends SQLiteTable & { id: SQLiteColumn }, V>(
  db: Db,
  table: T,
  opts: PageOpts,
  sizes: { page: number; max: number },
  view: (row: InferSelectModel<T>) => V,
): Promise<{ items: V[]; nextCursor: number | null }> {
  const limit = pageLimit(opts.limit, sizes);
  const rows = (await db
    .select()
    .from(table as SQLiteTable)
    .where(opts.after ? lt(table.id, opts.after) : undefined)
    .orderBy(desc(table.id))
    .limit(limit + 1)) as InferSelectModel<T>[];
  const { page, nextCursor } = splitPage(rows, limit, (r) => (r as { id: number }).id);
  return { items: page.map(view), nextCursor };
}

/** The page size asked for, clamped to 1…`max` (`page` when none is asked for). */
export const pageLimit = (limit: number | undefined, sizes: { page: number; max: number }) =>
  Math.min(Math.max(limit ?? sizes.page, 1), sizes.max);

/**
 * The rows of one parent (`parent = parentId`) past the cursor, for a page keyed on `key` highest first: use with
 * `.orderBy(desc(key)).limit(limit + 1)`, so an index on (parent, key) serves every page with one seek.
 */
export const underParentAfter = (parent: SQLiteColumn, parentId: number, key: SQLiteColumn, after?: number | null) =>
  and(eq(parent, parentId), after ? lt(key, after) : undefined);

/** The page (`limit` of the `limit + 1` rows read) and the cursor of the next one: the last key, or null at the end. */
export function splitPage<R>(rows: R[], limit: number, keyOf: (row: R) => number) {
  const page = rows.slice(0, limit);
  return { page, nextCursor: rows.length > limit ? keyOf(page[limit - 1]) : null };
}
