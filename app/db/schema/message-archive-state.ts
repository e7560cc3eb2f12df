import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * The archive task's single row (id 1, migration 0042). `archiving` is 1 only inside the archive batch: the messages
 * AFTER DELETE triggers that decrement message_counts and message_daily_counts skip while it is set, so archived
 * messages keep counting. The cursor, lap, lease and pending keys are explained in the migration.
 */
export const messageArchiveState = sqliteTable("message_archive_state", {
  id: integer("id").primaryKey(),
  archiving: integer("archiving").notNull().default(0),
  cursorAt: integer("cursor_at").notNull().default(0),
  cursorId: integer("cursor_id").notNull().default(0),
  lapDay: text("lap_day").notNull().default(""),
  leaseUntil: integer("lease_until").notNull().default(0),
  pendingKeys: text("pending_keys"), // JSON array of R2 keys put before the batch that records them
});
