import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Messages archived to R2 (migration 0042, app/messaging/archive-old-messages.server.ts): one row per object, a
 * gzipped NDJSON part of a month (`messages/<yyyy-mm>/part-<first id>.ndjson.gz`), written in the same D1 batch that
 * deletes its messages; and the per-month sums the archive screen lists.
 */
export const messageArchives = sqliteTable(
  "message_archives",
  {
    key: text("key").primaryKey(),
    month: text("month").notNull(), // UTC yyyy-mm of the messages' created_at
    firstId: integer("first_id").notNull(),
    lastId: integer("last_id").notNull(),
    rows: integer("rows").notNull(),
    bytes: integer("bytes").notNull(), // compressed size in R2
    createdAt: integer("created_at").notNull(), // epoch ms
  },
  (t) => [index("message_archives_month_idx").on(t.month, t.key)],
);

export const messageArchiveMonths = sqliteTable("message_archive_months", {
  month: text("month").primaryKey(),
  parts: integer("parts").notNull().default(0),
  rows: integer("rows").notNull().default(0),
  bytes: integer("bytes").notNull().default(0),
  updatedAt: integer("updated_at").notNull(),
});

export type MessageArchive = typeof messageArchives.$inferSelect;
export type MessageArchiveMonth = typeof messageArchiveMonths.$inferSelect;
