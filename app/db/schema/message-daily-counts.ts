import { integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Messages per UTC day of creation, by direction and status (migration 0029, WITHOUT ROWID), kept by triggers on
 * messages so the analytics chart reads ≤ 90 days × a few rows. Read only: the triggers write it.
 */
export const messageDailyCounts = sqliteTable(
  "message_daily_counts",
  {
    day: text("day").notNull(), // YYYY-MM-DD (UTC)
    direction: text("direction").notNull(),
    status: text("status").notNull(),
    n: integer("n").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.day, t.direction, t.status] })],
);
