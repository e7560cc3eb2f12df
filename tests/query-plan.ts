import { sql, type SQL } from "drizzle-orm";
import { db } from "./factories";

/** SQLite's EXPLAIN QUERY PLAN of a statement, its steps joined by " | " (what the plan tests match). */
export const plan = async (q: SQL) =>
  (await db().all<{ detail: string }>(sql`EXPLAIN QUERY PLAN ${q}`)).map((r) => r.detail).join(" | ");
