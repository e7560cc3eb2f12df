import { sqliteTable, integer, text, primaryKey } from "drizzle-orm/sqlite-core";

/**
 * Live counts of messages by direction and status, kept by triggers (migration 0005), so tab counts and
 * dashboard stats are one indexed read instead of a COUNT over a million rows.
 */
export const messageCounts = sqliteTable(
  "message_counts",
  {
    direction: text("direction").notNull(),
    status: text("status").notNull(),
    n: integer("n").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.direction, t.status] })],
);
