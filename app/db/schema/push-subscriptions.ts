import { integer, sqliteTable, text, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { autoId, bool, createdAt, parentId, utc } from "./_columns";
import { users } from "./users";

/**
 * A browser's Web Push subscription (issue 27 item 7, decision 049): the push service's endpoint (RFC 8030) and the
 * subscriber's P-256 public key and auth secret (base64url) its payloads are encrypted to (RFC 8291). At most
 * MAX_PUSH_SUBSCRIPTIONS per user; deleted when the push service answers 404 or 410.
 */
export const pushSubscriptions = sqliteTable(
  "push_subscriptions",
  {
    id: autoId(),
    userId: parentId("user_id", () => users.id),
    endpoint: text("endpoint").notNull(),
    p256dh: text("p256dh").notNull(),
    auth: text("auth").notNull(),
    /** "Chrome on Android"-style label for the settings card (describe-device). */
    device: text("device"),
    createdAt: createdAt(),
    lastSuccessAt: utc("last_success_at"),
  },
  (t) => [
    uniqueIndex("push_subscriptions_endpoint_uq").on(t.endpoint),
    index("push_subscriptions_user_idx").on(t.userId, t.id),
  ],
);

/** What a user wants pushed; no row means both on. */
export const pushPreferences = sqliteTable("push_preferences", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  hotLeads: bool("hot_leads").notNull().default(true),
  replies: bool("replies").notNull().default(true),
  updatedAt: utc("updated_at").notNull(),
});

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;
