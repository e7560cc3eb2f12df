import { sqliteTable, text } from "drizzle-orm/sqlite-core";
import { utc } from "./_columns";

/**
 * A sending number's (or Messaging Service's) US A2P 10DLC campaign status as Twilio last reported it (decision 067):
 * VERIFIED, IN_PROGRESS, PENDING, FAILED, or NONE when no campaign holds it. Replaced whole by each check.
 */
export const senderRegistrations = sqliteTable("sender_registrations", {
  sender: text("sender").primaryKey(),
  status: text("status", { enum: ["VERIFIED", "IN_PROGRESS", "PENDING", "FAILED", "NONE"] }).notNull(),
  serviceSid: text("service_sid"),
  campaignSid: text("campaign_sid"),
  useCase: text("use_case"),
  checkedAt: utc("checked_at").notNull(),
});

export type SenderRegistrationRow = typeof senderRegistrations.$inferSelect;
