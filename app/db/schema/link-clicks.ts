import { sqliteTable, integer, text, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { autoId, utc } from "./_columns";
import { contacts } from "./contacts";

/**
 * A tracked link's clicks (issue 29 item 3, decision 068, migration 0073): one row per message and link, written by
 * its first real click (bots and previews are not clicks) and counted on after. `message_id` has no foreign key: the
 * clicks outlive the message's archiving, as the campaign's figures do. The trigger `link_clicks_counts_ai` counts
 * each row once on its campaign and step (`click_count`).
 */
export const linkClicks = sqliteTable(
  "link_clicks",
  {
    id: autoId(),
    messageId: integer("message_id").notNull(),
    linkIndex: integer("link_index").notNull(),
    url: text("url").notNull(),
    contactId: integer("contact_id").references(() => contacts.id, { onDelete: "cascade" }),
    campaignId: integer("campaign_id"),
    stepId: integer("step_id"),
    clicks: integer("clicks").notNull().default(1),
    firstClickedAt: utc("first_clicked_at").notNull(),
    lastClickedAt: utc("last_clicked_at").notNull(),
  },
  (t) => [
    uniqueIndex("link_clicks_message_uq").on(t.messageId, t.linkIndex),
    index("link_clicks_contact_idx").on(t.contactId),
  ],
);

export type LinkClick = typeof linkClicks.$inferSelect;
