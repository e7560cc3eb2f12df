import { sqliteTable, integer, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { autoId, bool, createdAt, parentId, updatedAt } from "./_columns";
import { campaigns } from "./campaigns";
import type { PictureAttachment } from "./messages";

export const MESSAGE_TYPES = ["sms", "email"] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

export const campaignSteps = sqliteTable(
  "campaign_steps",
  {
    id: autoId(),
    campaignId: parentId("campaign_id", () => campaigns.id),
    stepNumber: integer("step_number").notNull(),
    name: text("name").notNull(),
    messageType: text("message_type", { enum: MESSAGE_TYPES }).notNull().default("sms"),
    subject: text("subject"),
    content: text("content").notNull(),
    delayDays: integer("delay_days").notNull().default(0),
    delayHours: integer("delay_hours").notNull().default(0),
    isActive: bool("is_active").notNull().default(true),
    // Stable order (migration 0014): step_number is renumbered after a delete, position never changes.
    position: integer("position").notNull().default(0),
    // Optional send window in the contact's zone: minutes after local midnight [start, end), weekdays only if set.
    windowStart: integer("window_start"),
    windowEnd: integer("window_end"),
    windowWeekdays: bool("window_weekdays").notNull().default(false),
    /** Tracked links first clicked in this step's texts (migration 0073, the trigger on link_clicks). */
    clickCount: integer("click_count").notNull().default(0),
    /** An SMS step's picture, sent with each of its texts as MMS (migration 0082, decision 076); null: text only. */
    picture: text("picture", { mode: "json" }).$type<PictureAttachment>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("campaign_steps_campaign_step_uq").on(t.campaignId, t.stepNumber)],
);

export type CampaignStep = typeof campaignSteps.$inferSelect;
