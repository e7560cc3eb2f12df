import { sql } from "drizzle-orm";
import { sqliteTable, integer, text, index } from "drizzle-orm/sqlite-core";
import { autoId, bool, createdAt, parentId, updatedAt } from "./_columns";
import { campaigns } from "./campaigns";
import { users } from "./users";

/**
 * The events a rule can start a sequence on: a new lead (by source), a contact moved to a stage (by stage key,
 * decision 059), an appointment marked no-show (any), a tracked link clicked (by campaign id, '' for any; decision 068).
 */
export const TRIGGER_EVENTS = [
  "lead.created",
  "stage.changed",
  "appointment.no_show",
  "link.clicked",
  // A contact got a tag (by its normalised text; issue 28 item 1).
  "tag.added",
] as const;
export type TriggerEvent = (typeof TRIGGER_EVENTS)[number];

/**
 * "When this happens → start that sequence" (issue 26, decision 037). `matchKey` is what the event must carry
 * (a lead's source), lower-cased and trimmed, '' for any; `matchValue` the text as typed (null = any). While an
 * enabled rule feeds a campaign, the campaign does not complete by itself (trigger `campaigns_complete_au`, 0054).
 */
export const sequenceTriggers = sqliteTable(
  "sequence_triggers",
  {
    id: autoId(),
    name: text("name").notNull(),
    triggerOn: text("trigger_on", { enum: TRIGGER_EVENTS }).notNull().default("lead.created"),
    matchKey: text("match_key").notNull().default(""),
    matchValue: text("match_value"),
    campaignId: parentId("campaign_id", () => campaigns.id),
    enabled: bool("enabled").notNull().default(true),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("sequence_triggers_match_idx")
      .on(t.triggerOn, t.matchKey)
      .where(sql`enabled = 1`),
    index("sequence_triggers_campaign_idx").on(t.campaignId),
  ],
);

export type SequenceTrigger = typeof sequenceTriggers.$inferSelect;
