import { sqliteTable, integer, text, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { autoId, bool, utc } from "./_columns";
import { contacts } from "./contacts";

/** One row per contact (or bare phone / email) with its latest message; kept by triggers on messages (migration 0022). */
export const conversations = sqliteTable(
  "conversations",
  {
    id: autoId(),
    key: text("key").notNull(),
    contactId: integer("contact_id").references(() => contacts.id, { onDelete: "cascade" }),
    phone: text("phone"),
    email: text("email"),
    lastMessageId: integer("last_message_id").notNull(),
    lastMessageAt: utc("last_message_at").notNull(),
    lastDirection: text("last_direction", { enum: ["inbound", "outbound"] }).notNull(),
    lastPreview: text("last_preview").notNull(),
    needsReply: bool("needs_reply").notNull().default(false),
  },
  (t) => [
    uniqueIndex("conversations_key_uq").on(t.key),
    index("conversations_recent_idx").on(t.lastMessageAt, t.lastMessageId),
    index("conversations_contact_idx").on(t.contactId),
  ],
);

export type Conversation = typeof conversations.$inferSelect;
