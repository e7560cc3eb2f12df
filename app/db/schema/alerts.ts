import { sql } from "drizzle-orm";
import { sqliteTable, integer, text, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { autoId, bool, createdAt, utc } from "./_columns";
import { alertProfiles } from "./alert-profiles";
import { contacts } from "./contacts";
import { users } from "./users";

export const ALERT_STATUSES = ["unacknowledged", "acknowledged"] as const;
export const ALERT_CATEGORIES = [
  "high-priority lead",
  "appointment request",
  "objection",
  "information request",
] as const;
export type AlertCategory = (typeof ALERT_CATEGORIES)[number];

/** One alert per inbound reply that matched a keyword bank or alert profile (test alerts have no inbound). */
export const alerts = sqliteTable(
  "alerts",
  {
    id: autoId(),
    inboundMessageId: integer("inbound_message_id"),
    contactId: integer("contact_id").references(() => contacts.id, { onDelete: "set null" }),
    phone: text("phone"),
    content: text("content").notNull(),
    profileId: integer("profile_id").references(() => alertProfiles.id, { onDelete: "set null" }),
    bankIds: text("bank_ids", { mode: "json" }).$type<number[]>().notNull().default([]),
    profileIds: text("profile_ids", { mode: "json" }).$type<number[]>().notNull().default([]),
    priority: text("priority").notNull(),
    category: text("category", { enum: ALERT_CATEGORIES }).notNull(),
    intent: text("intent"),
    sentiment: text("sentiment"),
    confidence: integer("confidence"),
    analysisMs: integer("analysis_ms"),
    /** The ai_classifications row the classifier recorded (app/ai), when it ran. */
    classificationId: integer("classification_id"),
    status: text("status", { enum: ALERT_STATUSES }).notNull().default("unacknowledged"),
    /** A person's mark on the classification: right or wrong (null = not marked). */
    verdict: text("verdict", { enum: ["right", "wrong"] }),
    escalationDueAt: utc("escalation_due_at"),
    escalatedAt: utc("escalated_at"),
    acknowledgedAt: utc("acknowledged_at"),
    acknowledgedBy: integer("acknowledged_by").references(() => users.id, { onDelete: "set null" }),
    isTest: bool("is_test").notNull().default(false),
    /** Owner first (migration 0062, decision 050): the contact's owner, alerted at once; null = unowned. */
    ownerUserId: integer("owner_user_id").references(() => users.id, { onDelete: "set null" }),
    /** The profile's recipients waiting on the owner, when they are due, and what became of them. */
    deferredTo: text("deferred_to", { mode: "json" }).$type<string[]>(),
    deferredDueAt: utc("deferred_due_at"),
    deferredOutcome: text("deferred_outcome", { enum: ["sent", "answered"] }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("alerts_inbound_uq").on(t.inboundMessageId),
    index("alerts_status_idx").on(t.status, t.id),
    // The retention purge (app/jobs/purge-old-rows.server.ts, decision 022).
    index("alerts_created_at_idx").on(t.createdAt),
    // sendDeferredAlerts (cron): the waiting rows only.
    index("alerts_deferred_due_idx")
      .on(t.deferredDueAt)
      .where(sql`deferred_due_at IS NOT NULL`),
  ],
);

/** Who and what an alert is about: the alert list and the `alert.created` webhook select these. */
export const alertSubjectColumns = {
  id: alerts.id,
  contactId: alerts.contactId,
  phone: alerts.phone,
  content: alerts.content,
  priority: alerts.priority,
  category: alerts.category,
};
