import { sqliteTable, integer, text, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { autoId, bool, createdAt, utc } from "./_columns";
import { autoResponders } from "./auto-responders";

/** One row per (inbound message, responder) that answered it: replay guard, escalation counter, stat source. */
export const responderTriggers = sqliteTable(
  "responder_triggers",
  {
    id: autoId(),
    responderId: integer("responder_id")
      .notNull()
      .references(() => autoResponders.id, { onDelete: "cascade" }),
    inboundMessageId: integer("inbound_message_id").notNull(),
    phone: text("phone").notNull(),
    inboundAt: utc("inbound_at").notNull(),
    escalated: bool("escalated").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("responder_triggers_inbound_uq").on(t.inboundMessageId, t.responderId),
    index("responder_triggers_phone_idx").on(t.responderId, t.phone, t.id),
    index("responder_triggers_phone_inbound_idx").on(t.phone, t.inboundMessageId),
    index("responder_triggers_created_idx").on(t.createdAt),
  ],
);
