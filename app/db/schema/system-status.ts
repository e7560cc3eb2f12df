import { sqliteTable, text, integer } from "drizzle-orm/sqlite-core";

/** Facts the system records about itself: activity_totals (trigger-kept) and key → JSON status rows. */
export const activityTotals = sqliteTable("activity_totals", {
  id: integer("id").primaryKey(),
  total: integer("total").notNull().default(0),
});

export const systemStatus = sqliteTable("system_status", {
  key: text("key").primaryKey(),
  value: text("value", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
  updatedAt: integer("updated_at", { mode: "timestamp_ms" }).notNull(),
});
