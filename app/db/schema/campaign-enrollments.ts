import { sqliteTable, integer, text, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { autoId, createdAt, parentId, updatedAt, utc } from "./_columns";
import { campaigns } from "./campaigns";
import { contacts } from "./contacts";

/** active: in the sequence; paused: held by a draft/paused campaign; completed: every step done; stopped: reply, opt-out, failure. */
export const ENROLLMENT_STATUSES = ["active", "paused", "completed", "stopped"] as const;

// One row per contact in a campaign: where it is in the sequence and when its next step is due.
export const campaignEnrollments = sqliteTable(
  "campaign_enrollments",
  {
    id: autoId(),
    campaignId: parentId("campaign_id", () => campaigns.id),
    contactId: parentId("contact_id", () => contacts.id),
    status: text("status", { enum: ENROLLMENT_STATUSES }).notNull().default("active"),
    nextStepNumber: integer("next_step_number").notNull().default(1),
    nextRunAt: utc("next_run_at"),
    lastSentAt: utc("last_sent_at"),
    /** When the previous step went out (or the start): the next step's delay counts from here (migration 0014). */
    anchorAt: utc("anchor_at"),
    stopReason: text("stop_reason"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("campaign_enrollments_campaign_contact_uq").on(t.campaignId, t.contactId),
    index("campaign_enrollments_due_idx").on(t.status, t.nextRunAt),
    index("campaign_enrollments_contact_idx").on(t.contactId),
    index("campaign_enrollments_campaign_status_idx").on(t.campaignId, t.status),
  ],
);
