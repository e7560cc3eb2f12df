import { sqliteTable, integer, text, primaryKey } from "drizzle-orm/sqlite-core";

/**
 * Counts of messages by direction and status: since migration 0041 a VIEW summing message_daily_counts (kept by
 * triggers; pending, queued and sending share the `pending` bucket), so tab counts and dashboard stats read a few
 * hundred small rows instead of a COUNT over millions. Read only.
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
