import { sql } from "drizzle-orm";
import { sqliteTable, integer, text, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { autoId, bool, utc } from "./_columns";
import { contacts } from "./contacts";
import { users } from "./users";

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
    // The inbox queue (migration 0058, decision 046): the contact's owner (kept by triggers), open/closed, a snooze
    // (open, hidden until snoozed_until passes) and the latest inbound message (unread above conversation_reads).
    ownerUserId: integer("owner_user_id").references(() => users.id, { onDelete: "set null" }),
    status: text("status", { enum: ["open", "closed"] })
      .notNull()
      .default("open"),
    snoozedUntil: utc("snoozed_until"),
    lastInboundId: integer("last_inbound_id"),
  },
  (t) => [
    uniqueIndex("conversations_key_uq").on(t.key),
    index("conversations_queue_idx").on(t.ownerUserId, t.status, t.lastMessageAt, t.lastMessageId),
    index("conversations_status_recent_idx").on(t.status, t.lastMessageAt, t.lastMessageId),
    index("conversations_snoozed_idx")
      .on(t.ownerUserId, t.snoozedUntil, t.id)
      .where(sql`snoozed_until IS NOT NULL`),
    index("conversations_snoozed_all_idx")
      .on(t.snoozedUntil, t.id)
      .where(sql`snoozed_until IS NOT NULL`),
    index("conversations_contact_idx").on(t.contactId),
  ],
);

export type Conversation = typeof conversations.$inferSelect;
