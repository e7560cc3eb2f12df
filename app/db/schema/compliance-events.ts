import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { autoId } from "./_columns";

/** quiet_hours: deferred for the calling window; held: deferred by a daily cap or held for a paused number (0078). */
export const COMPLIANCE_EVENT_KINDS = ["opt_out", "opt_in", "refused", "quiet_hours", "held"] as const;
export type ComplianceEventKind = (typeof COMPLIANCE_EVENT_KINDS)[number];

/**
 * Consent changes and refused or held sends, written only by triggers (migration 0039), so every path records them:
 * the compliance report counts them per day and the evidence export lists them.
 */
export const complianceEvents = sqliteTable(
  "compliance_events",
  {
    id: autoId(),
    at: integer("at").notNull(), // epoch ms
    day: text("day").notNull(), // UTC yyyy-mm-dd
    kind: text("kind", { enum: COMPLIANCE_EVENT_KINDS }).notNull(),
    channel: text("channel", { enum: ["sms", "email"] }).notNull(),
    contactId: integer("contact_id"),
    address: text("address"),
    // Opt-outs: the source (STOP keyword, unsubscribe link, carrier 21610, manual…); sends: the reason.
    source: text("source"),
    messageId: integer("message_id"),
    // Opt-outs and opt-ins: the contact's inbound text that caused it, copied here before that message is archived
    // (migration 0042); until then the evidence export reads it from messages.
    inboundContent: text("inbound_content"),
    inboundAt: integer("inbound_at"),
    inboundTo: text("inbound_to"),
  },
  (t) => [
    index("compliance_events_day_kind_idx").on(t.day, t.kind),
    index("compliance_events_contact_idx").on(t.contactId, t.id),
    index("compliance_events_kind_id_idx").on(t.kind, t.id),
  ],
);

export type ComplianceEvent = typeof complianceEvents.$inferSelect;
