import { sqliteTable, integer, text, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { autoId, createdAt, updatedAt } from "./_columns";

/**
 * The local provider's "sent items": what would have gone to Twilio or SendGrid when no credentials are
 * configured. Status moves queued → sent → delivered on cron ticks, reported back like a status callback.
 */
export const outboxMessages = sqliteTable(
  "outbox_messages",
  {
    id: autoId(),
    sid: text("sid").notNull(),
    channel: text("channel", { enum: ["sms", "email"] }).notNull(),
    toAddress: text("to_address").notNull(),
    fromAddress: text("from_address").notNull(),
    subject: text("subject"),
    body: text("body").notNull(),
    status: text("status").notNull(), // queued | sent | delivered
    messageId: integer("message_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("outbox_messages_sid_uq").on(t.sid),
    index("outbox_messages_status_idx").on(t.status, t.updatedAt),
    index("outbox_messages_to_idx").on(t.toAddress, t.createdAt),
  ],
);
