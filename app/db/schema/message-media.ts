import { sqliteTable, integer, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { autoId, createdAt, parentId, updatedAt } from "./_columns";
import { messages } from "./messages";

/** pending (recorded with the message) → stored (in R2) | refused (type or size) | failed (Twilio would not give it). */
export const MEDIA_STATUSES = ["pending", "stored", "refused", "failed"] as const;
export type MediaStatus = (typeof MEDIA_STATUSES)[number];

/**
 * A picture or file that came with an inbound MMS (issue 28 item 3, decision 057, migration 0066): Twilio's URL and
 * type as the webhook gave them, then the R2 key and size once the job fetched it with the account's credentials.
 */
export const messageMedia = sqliteTable(
  "message_media",
  {
    id: autoId(),
    messageId: parentId("message_id", () => messages.id),
    position: integer("position").notNull(),
    sourceUrl: text("source_url").notNull(),
    contentType: text("content_type").notNull(),
    status: text("status", { enum: MEDIA_STATUSES }).notNull().default("pending"),
    r2Key: text("r2_key"),
    sizeBytes: integer("size_bytes"),
    error: text("error"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("message_media_message_uq").on(t.messageId, t.position)],
);

export type MessageMedia = typeof messageMedia.$inferSelect;
