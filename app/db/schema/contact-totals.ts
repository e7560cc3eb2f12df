import { sqliteTable, integer } from "drizzle-orm/sqlite-core";

/** One row: how many contacts exist, kept by triggers (migration 0009) so the list never COUNTs 100k rows. */
export const contactTotals = sqliteTable("contact_totals", {
  id: integer("id").primaryKey(),
  n: integer("n").notNull().default(0),
});
