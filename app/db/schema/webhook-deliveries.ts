import { sql } from "drizzle-orm";
import { sqliteTable, integer, text, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { autoId, createdAt, parentId, utc } from "./_columns";
import { webhookSubscriptions } from "./webhook-subscriptions";

export const WEBHOOK_DELIVERY_STATUSES = ["pending", "retrying", "delivered", "failed"] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/**
 * One event for one subscription (migration 0053, decision 036): the body exactly as signed and the last attempt's
 * outcome — the delivery log. `pending` = a queue message is on its way; `retrying` waits for `next_attempt_at`
 * (the cron tick picks it up through the partial index); pruned by the retention task.
 */
export const webhookDeliveries = sqliteTable(
  "webhook_deliveries",
  {
    id: autoId(),
    subscriptionId: parentId("subscription_id", () => webhookSubscriptions.id),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    payload: text("payload").notNull(),
    status: text("status", { enum: WEBHOOK_DELIVERY_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: utc("next_attempt_at"),
    lastAttemptAt: utc("last_attempt_at"),
    lastStatusCode: integer("last_status_code"),
    lastResponse: text("last_response"),
    lastDurationMs: integer("last_duration_ms"),
    lastError: text("last_error"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_event_uq").on(t.subscriptionId, t.eventId),
    index("webhook_deliveries_log_idx").on(t.subscriptionId, t.id),
    index("webhook_deliveries_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`status = 'retrying'`),
    index("webhook_deliveries_created_at_idx").on(t.createdAt),
  ],
);

export type WebhookDelivery = typeof webhookDeliveries.$inferSelect;
