import { sqliteTable, integer, text, index } from "drizzle-orm/sqlite-core";
import { autoId, bool, createdAt, updatedAt, utc } from "./_columns";
import { segments } from "./segments";
import { users } from "./users";

export const CAMPAIGN_STATUSES = ["draft", "running", "paused", "completed"] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

export const campaigns = sqliteTable(
  "campaigns",
  {
    id: autoId(),
    name: text("name").notNull(),
    description: text("description"),
    status: text("status", { enum: CAMPAIGN_STATUSES }).notNull().default("draft"),
    scheduledAt: utc("scheduled_at"),
    startDate: utc("start_date"),
    // {{promoCode}} and {{offerExpiration}} (a calendar date, YYYY-MM-DD, shown in the contact's words).
    promoCode: text("promo_code"),
    offerExpiration: text("offer_expiration"),
    // Counters are maintained by the send pipeline so lists never aggregate the messages table.
    contactCount: integer("contact_count").notNull().default(0),
    sentCount: integer("sent_count").notNull().default(0),
    deliveredCount: integer("delivered_count").notNull().default(0),
    responseCount: integer("response_count").notNull().default(0),
    /** Enrolments stopped by an opt-out, kept by triggers on campaign_enrollments (migration 0029). */
    optedOutCount: integer("opted_out_count").notNull().default(0),
    /** Tracked links first clicked, kept by the trigger on link_clicks (migration 0073, decision 068). */
    clickCount: integer("click_count").notNull().default(0),
    // Campaign engine (migration 0014): stop-on-reply switch; the audience query enrolled at start ("" = all
    // contacts, null = picked contacts only); enrolment progress kept by triggers on campaign_enrollments.
    stopOnReply: bool("stop_on_reply").notNull().default(true),
    audienceQuery: text("audience_query"),
    audienceEnrolled: bool("audience_enrolled").notNull().default(false),
    /** A saved segment as the audience (migration 0081, decision 075): enrolled at start, re-checked at each step. */
    segmentId: integer("segment_id").references(() => segments.id, { onDelete: "set null" }),
    enrolling: bool("enrolling").notNull().default(false),
    waitingCount: integer("waiting_count").notNull().default(0),
    finishedCount: integer("finished_count").notNull().default(0),
    stoppedCount: integer("stopped_count").notNull().default(0),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    startedAt: utc("started_at"),
    completedAt: utc("completed_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("campaigns_created_at_idx").on(t.createdAt), index("campaigns_status_idx").on(t.status)],
);

export type Campaign = typeof campaigns.$inferSelect;

/** A campaign's name, status and maintained counters: the funnel the Dashboard shows and `campaign.completed` sends. */
export const campaignFunnelColumns = {
  id: campaigns.id,
  name: campaigns.name,
  status: campaigns.status,
  contactCount: campaigns.contactCount,
  sentCount: campaigns.sentCount,
  deliveredCount: campaigns.deliveredCount,
  responseCount: campaigns.responseCount,
  optedOutCount: campaigns.optedOutCount,
};
