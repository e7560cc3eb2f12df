import { sqliteTable, integer, text } from "drizzle-orm/sqlite-core";
import { utc } from "./_columns";

/**
 * The last STOP/START keyword that took effect for a phone number (E.164). Keyword effects apply only when the
 * inbound row is new and newer (by messages.id, i.e. first arrival) than the one recorded here; `nonce` marks,
 * inside one batch, that this request won, so the opt-out statements that follow run only then.
 */
export const smsKeywordState = sqliteTable("sms_keyword_state", {
  address: text("address").primaryKey(),
  keyword: text("keyword", { enum: ["stop", "start"] }).notNull(),
  messageId: integer("message_id").notNull(),
  messageSid: text("message_sid").notNull(),
  nonce: text("nonce").notNull(),
  appliedAt: utc("applied_at").notNull(),
});
