import { desc, lt, type InferSelectModel } from "drizzle-orm";
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
  const limit = Math.min(Math.max(opts.limit ?? sizes.page, 1), sizes.max);
  const rows = (await db
    .select()
    .from(table as SQLiteTable)
    .where(opts.after ? lt(table.id, opts.after) : undefined)
    .orderBy(desc(table.id))
    .limit(limit + 1)) as InferSelectModel<T>[];
  const page = rows.slice(0, limit);
  return { items: page.map(view), nextCursor: rows.length > limit ? (page.at(-1) as { id: number }).id : null };
}
