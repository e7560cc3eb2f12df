import { sql } from "drizzle-orm";
import { sqliteTable, integer, text, index } from "drizzle-orm/sqlite-core";
import { utc } from "./_columns";
import { contacts } from "./contacts";
import { users } from "./users";

/**
 * Speed to lead, per contact (issue 26, decision 037): when the lead came in (runLeadTriggers), its first text, the
 * contact's first reply and the rep's first answer to it. Written by triggers on `messages` (0054:
 * `messages_response_times_ai` on a reply, `messages_response_times_au` when a text is handed to the provider), so
 * the figures read this table through its indexes and never the messages table. `*By` = the text's sender.
 */
export const contactResponseTimes = sqliteTable(
  "contact_response_times",
  {
    contactId: integer("contact_id")
      .primaryKey()
      .references(() => contacts.id, { onDelete: "cascade" }),
    leadAt: utc("lead_at"),
    leadSource: text("lead_source"),
    firstTextAt: utc("first_text_at"),
    firstTextBy: integer("first_text_by").references(() => users.id, { onDelete: "set null" }),
    firstReplyAt: utc("first_reply_at"),
    firstAnswerAt: utc("first_answer_at"),
    firstAnswerBy: integer("first_answer_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [
    index("contact_response_times_lead_idx")
      .on(t.leadAt)
      .where(sql`first_text_at IS NOT NULL`),
    index("contact_response_times_lead_rep_idx")
      .on(t.firstTextBy, t.leadAt)
      .where(sql`first_text_at IS NOT NULL`),
    index("contact_response_times_reply_idx")
      .on(t.firstReplyAt)
      .where(sql`first_answer_at IS NOT NULL`),
    index("contact_response_times_reply_rep_idx")
      .on(t.firstAnswerBy, t.firstReplyAt)
      .where(sql`first_answer_at IS NOT NULL`),
  ],
);

export type ContactResponseTimes = typeof contactResponseTimes.$inferSelect;
