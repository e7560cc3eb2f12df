import { sqliteTable, integer, text, primaryKey } from "drizzle-orm/sqlite-core";

/**
 * Per-rep figures (migration 0062, decision 050): one row per rep, UTC day and contact the rep texted that day (a
 * person's text handed to the provider), kept by the trigger `messages_rep_replies_au` on messages. User Analytics
 * reads one primary-key range (user_id, day) of it — never the messages table. Read only: the trigger writes it.
 */
export const repReplyDays = sqliteTable(
  "rep_reply_days",
  {
    userId: integer("user_id").notNull(),
    day: text("day").notNull(), // YYYY-MM-DD (UTC)
    contactId: integer("contact_id").notNull(),
    replies: integer("replies").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day, t.contactId] })],
);
