import { sqliteTable, integer, text, primaryKey, index } from "drizzle-orm/sqlite-core";

/**
 * Status callbacks that arrived before the send was recorded (the consumer writes sids per batch, and a
 * fast "delivered" can beat it). Applied once the sid is known; pruned after a day.
 */
export const statusBacklog = sqliteTable(
  "status_backlog",
  {
    sid: text("sid").notNull(),
    status: text("status").notNull(),
    errorCode: text("error_code"),
    errorMessage: text("error_message"),
    receivedAt: integer("received_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.sid, t.status] }), index("status_backlog_received_at_idx").on(t.receivedAt)],
);
