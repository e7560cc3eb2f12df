import { sqliteTable, integer, text, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { autoId, createdAt, utc } from "./_columns";
import { MESSAGE_TYPES } from "./campaign-steps";
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
    createdAt: createdAt(),
  },
  (t) => [
    index("broadcasts_created_at_idx").on(t.createdAt),
    uniqueIndex("broadcasts_idempotency_key_uq").on(t.idempotencyKey),
  ],
);
