import { sql } from "drizzle-orm";
import { sqliteTable, integer, text, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { autoId, createdAt, utc } from "./_columns";
import { MESSAGE_TYPES } from "./campaign-steps";
import { segments } from "./segments";
import { users } from "./users";

/** One broadcast (send-broadcast call): its messages carry broadcast_id and key `bcast:{id}:{contact}`. */
export const broadcasts = sqliteTable(
  "broadcasts",
  {
    id: autoId(),
    type: text("type", { enum: MESSAGE_TYPES }).notNull(),
    subject: text("subject"),
    content: text("content").notNull(),
    recipientCount: integer("recipient_count").notNull().default(0),
    scheduledAt: utc("scheduled_at"),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    // `{user}:{Idempotency-Key}` (or a random key): a client retry returns the same broadcast.
    idempotencyKey: text("idempotency_key"),
    /**
     * A saved segment as the audience (migration 0081, decision 075): its contacts are read when the broadcast is due,
     * not when it is written — `segment_cursor` is the contact id the resolution has reached (newest first) and
     * `resolved_at` when it finished.
     */
    segmentId: integer("segment_id").references(() => segments.id, { onDelete: "set null" }),
    segmentCursor: integer("segment_cursor"),
    resolvedAt: utc("resolved_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("broadcasts_created_at_idx").on(t.createdAt),
    // The tick's due segment broadcasts: only the unresolved ones are in it, so an idle tick reads nothing.
    index("broadcasts_segment_due_idx")
      .on(t.scheduledAt)
      .where(sql`segment_id IS NOT NULL AND resolved_at IS NULL`),
    uniqueIndex("broadcasts_idempotency_key_uq").on(t.idempotencyKey),
  ],
);
