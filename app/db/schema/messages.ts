import { sql } from "drizzle-orm";
import { sqliteTable, integer, text, index, uniqueIndex } from "drizzle-orm/sqlite-core";
import { autoId, bool, createdAt, updatedAt, utc } from "./_columns";
import { campaigns } from "./campaigns";
import { contacts } from "./contacts";
import { users } from "./users";

export const MESSAGE_DIRECTIONS = ["inbound", "outbound"] as const;
export const MESSAGE_CHANNELS = ["sms", "email"] as const;
/**
 * pending   – row written, waiting to be (re)enqueued or for its scheduled/quiet-hours time
 * queued    – handed to the queue
 * sending   – claimed by a consumer; the provider may or may not have it (reconcile, never resend blindly)
 * sent/delivered/undelivered/failed – provider outcomes; received – inbound; skipped – compliance refused it
 * held      – a campaign step whose campaign is paused; resume puts it back to pending (app/campaigns)
 */
export const MESSAGE_STATUSES = [
  "pending",
  "queued",
  "sending",
  "sent",
  "delivered",
  "undelivered",
  "failed",
  "received",
  "skipped",
  "held",
] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** Why a message exists: decides quiet hours (marketing kinds), suppression exemptions and Message Center labels. */
export const MESSAGE_KINDS = [
  "campaign",
  "broadcast",
  "quick",
  "individual",
  "test",
  "compliance",
  "reply",
  "inbound",
  "auto_reply",
  "auto_followup",
  "alert",
  // An appointment's confirmation, reminders and answers to C/Y/N/R (decision 055).
  "appointment",
] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/** A file an email carries (decision 064): text content, encoded for the wire by the email provider. */
/** A file an email carries, its content as UTF-8 text (an `.ics` invite). */
export type EmailAttachment = { filename: string; contentType: string; content: string };
/** A picture an SMS carries as MMS (decision 076): stored in R2, fetched by Twilio from a signed public URL. */
export type PictureAttachment = { filename: string; contentType: string; r2Key: string; sizeBytes: number };
export type MessageAttachment = EmailAttachment | PictureAttachment;
export const isPicture = (a: MessageAttachment): a is PictureAttachment => "r2Key" in a;

export const messages = sqliteTable(
  "messages",
  {
    id: autoId(),
    channel: text("channel", { enum: MESSAGE_CHANNELS }).notNull().default("sms"),
    direction: text("direction", { enum: MESSAGE_DIRECTIONS }).notNull(),
    kind: text("kind", { enum: MESSAGE_KINDS }).notNull().default("individual"),
    status: text("status", { enum: MESSAGE_STATUSES }).notNull(),
    contactId: integer("contact_id").references(() => contacts.id, { onDelete: "set null" }),
    campaignId: integer("campaign_id").references(() => campaigns.id, { onDelete: "set null" }),
    stepId: integer("step_id"),
    enrollmentId: integer("enrollment_id"),
    broadcastId: integer("broadcast_id"),
    phone: text("phone"), // the contact's number (to for outbound, from for inbound)
    email: text("email"),
    fromAddress: text("from_address"), // our sending number / address
    subject: text("subject"),
    content: text("content").notNull(),
    /** Files an email carries (an appointment reminder's calendar invite, issue 28) or an SMS's pictures (MMS). */
    attachments: text("attachments", { mode: "json" }).$type<MessageAttachment[]>(),
    // Unique: a second insert for the same logical send is refused, so retries never double-send.
    idempotencyKey: text("idempotency_key").notNull(),
    twilioSid: text("twilio_sid"), // provider message id (Twilio SM…, SendGrid id, outbox id)
    provider: text("provider"),
    isMarketing: bool("is_marketing").notNull().default(true),
    isTest: bool("is_test").notNull().default(false),
    segments: integer("segments"),
    scheduledAt: utc("scheduled_at"), // not before this instant (user schedule or quiet-hours deferral)
    attempts: integer("attempts").notNull().default(0),
    /** Times the sender's rate limit sent this message back to wait (first time: a place in line; later: soon). */
    pacingDeferrals: integer("pacing_deferrals").notNull().default(0),
    errorCode: text("error_code"),
    errorMessage: text("error_message"),
    claimedAt: utc("claimed_at"),
    sentAt: utc("sent_at"),
    deliveredAt: utc("delivered_at"),
    createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // Every index is paid for on every write (issue 22; each is argued against the queries it serves in decision 016).
  // The status-dependent ones are partial: a message leaving pending/queued/sending leaves the index for free.
  // messages_fts (FTS5, migrations 0005/0044) indexes what was sent: a bulk row once its template is rendered.
  // Partial indexes are used only when a query repeats their WHERE literally (status = 'x', not IN or a parameter).
  (t) => [
    uniqueIndex("messages_idempotency_key_uq").on(t.idempotencyKey),
    uniqueIndex("messages_twilio_sid_uq")
      .on(t.twilioSid)
      .where(sql`twilio_sid IS NOT NULL`),
    index("messages_created_at_idx").on(t.createdAt, t.id),
    index("messages_due_idx")
      .on(t.status, t.scheduledAt)
      .where(sql`status = 'pending' OR status = 'queued' OR status = 'sending'`),
    index("messages_held_idx")
      .on(t.campaignId)
      .where(sql`status = 'held'`),
    index("messages_contact_thread_idx").on(t.contactId, t.id),
    index("messages_phone_thread_idx").on(t.phone, t.id),
    index("messages_campaign_idx")
      .on(t.campaignId)
      .where(sql`campaign_id IS NOT NULL`),
    index("messages_broadcast_status_idx")
      .on(t.broadcastId, t.status)
      .where(sql`broadcast_id IS NOT NULL AND status NOT IN ('queued', 'sending')`),
    index("messages_email_idx")
      .on(t.email)
      .where(sql`channel = 'email'`),
    index("messages_inbound_idx")
      .on(t.id)
      .where(sql`direction = 'inbound'`),
    index("messages_failed_idx")
      .on(t.id)
      .where(sql`status = 'failed' OR status = 'undelivered'`),
    index("messages_unsent_phone_idx")
      .on(t.phone)
      .where(sql`status IN ('pending', 'queued', 'held')`),
    // The deliverability autopilot's count (decision 065): a sending number's carrier-filtered texts since a moment.
    index("messages_filtered_sender_idx")
      .on(t.fromAddress, t.updatedAt)
      .where(sql`error_code IN ('30007', '30032', '30034')`),
    // The Florida/Oklahoma cap's read (decision 061): a number's capped texts sent since a moment.
    index("messages_capped_sent_idx")
      .on(t.phone, t.sentAt)
      .where(
        sql`sent_at IS NOT NULL AND direction = 'outbound' AND channel = 'sms' AND kind IN ('campaign', 'broadcast', 'quick', 'auto_followup')`,
      ),
    index("messages_phone_conversation_idx")
      .on(t.phone, t.id)
      .where(sql`direction = 'inbound' OR kind IN ('individual', 'quick', 'reply')`),
  ],
);

export type Message = typeof messages.$inferSelect;
export type NewMessage = typeof messages.$inferInsert;
