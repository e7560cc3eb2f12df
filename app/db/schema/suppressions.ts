import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { autoId, createdAt } from "./_columns";

/**
 * Do-not-contact list by address, across every sender and path (a number that texted STOP is suppressed
 * even when it is not, or no longer, a contact). channel sms → E.164 phone; email → lower-cased address.
 */
export const suppressions = sqliteTable(
  "suppressions",
  {
    id: autoId(),
    channel: text("channel", { enum: ["sms", "email"] }).notNull(),
    address: text("address").notNull(),
    reason: text("reason").notNull(), // e.g. "STOP", "twilio:21610", "email-unsubscribe"
    source: text("source"), // inbound message sid, unsubscribe token, user id …
    // "marketing": appointment texts still go to the number (decision 072); "all": nothing but compliance answers.
    scope: text("scope", { enum: ["all", "marketing"] })
      .notNull()
      .default("all"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("suppressions_channel_address_uq").on(t.channel, t.address),
    // The plain-words opt-outs a superuser reviews on /compliance (migration 0050).
    index("suppressions_reason_created_at_idx").on(t.reason, t.createdAt),
  ],
);
