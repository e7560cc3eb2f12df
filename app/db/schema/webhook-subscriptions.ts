import { sqliteTable, integer, text } from "drizzle-orm/sqlite-core";
import { autoId, bool, createdAt, updatedAt, utc } from "./_columns";
import { users } from "./users";

/** The events a subscription can choose (issue 26 item 4, decision 036). */
export const WEBHOOK_EVENTS = [
  "message.received",
  "contact.opted_out",
  "alert.created",
  "campaign.completed",
  "lead.created",
  "message.failed",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/**
 * An outbound webhook subscription (migration 0053, decision 036). The secret is stored as is: the receiver checks
 * the HMAC with the same value, so a hash would not do; it is shown once and rotated, never shown again.
 */
export const webhookSubscriptions = sqliteTable("webhook_subscriptions", {
  id: autoId(),
  url: text("url").notNull(),
  description: text("description").notNull().default(""),
  events: text("events", { mode: "json" }).$type<WebhookEventType[]>().notNull().default([]),
  secret: text("secret").notNull(),
  enabled: bool("enabled").notNull().default(true),
  disabledReason: text("disabled_reason"),
  consecutiveFailures: integer("consecutive_failures").notNull().default(0),
  failingSince: utc("failing_since"),
  maxPerHour: integer("max_per_hour").notNull().default(600),
  createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export type WebhookSubscription = typeof webhookSubscriptions.$inferSelect;
