import { pictureUrls } from "./outbound-pictures.server";
import { and, eq, inArray, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { BatchItem } from "drizzle-orm/batch";
import { recordStatus } from "~/activity/system-status.server";
import { assessPhone } from "~/contacts/phone";
import { bulkUpdateStatements, inJson } from "~/db/bulk-update.server";
import { D1_VALUE_BUDGET, jsonBytes } from "~/db/chunk-by-bytes.server";
import { runBatch, type Db } from "~/db/client.server";
import { orNull, packedColumns } from "~/db/packed-columns.server";
import {
  appointments,
  campaigns,
  contacts,
  messages,
  orgSettings,
  senderPacing,
  suppressions as suppressionList,
  users,
  type Campaign,
  type Contact,
  type Message,
  isPicture,
  type EmailAttachment,
} from "~/db/schema";
import { messageIdsOf, type SendJob } from "~/jobs/jobs";
import type { Clock } from "~/lib/clock";
import type { JobOutcomes } from "~/lib/job-queue";
import { senderPausedNote } from "./sender-pause";
import {
  NO_MARKETING_CONSENT_REASON,
  OPTED_OUT_REASON,
  STAFF_MAIL_KINDS,
  suppressStatements,
  UNSUBSCRIBED_REASON,
} from "./compliance.server";
import type { MessagingConfig } from "./messaging-config.server";
import {
  carryLateness,
  createSendGate,
  nextUtcDay,
  planReservation,
  projectSlots,
  reservationFrom,
  reserveSendSlots,
  reserveStatement,
  type PacingState,
} from "./pacing.server";
import { ProviderError, type EmailProvider, type SendAccepted, type SmsProvider } from "./providers/provider";
import { nextAllowedSendTimes, quietHoursNote, stateForRules, stateRuleFor } from "./quiet-hours";
import {
  CAP_WINDOW_MS,
  CAPPED_KINDS_LIST,
  cappedSentSince,
  capNote,
  isCappedKind,
  nextUnderCap,
} from "./marketing-cap";
import { renderQuickSend, renderTemplate } from "./render";
import { smsSegments } from "./segments";
import { unsubscribeUrls } from "./unsubscribe.server";
import { linkBaseFrom } from "./tracked-links";
import { wireTexts } from "./tracked-links.server";
import { renderEmail, renderStaffEmail } from "./render-email";
import { applyBacklogRows, selectStatusBacklog } from "./record-status.server";
import { localIgnoresQuietHours, orgSettingsFrom, selectOrgSettings, type OrgSettingRow } from "./org-settings.server";
import { variableValues, type OrgSettings } from "./variable-values";
import { providedVariables, runFinalFailureHooks, type PipelineHooks } from "./pipeline-hooks";
import {
  goesDespiteOptOut,
  INFORMATIONAL_KINDS,
  INFORMATIONAL_SENDER_KEY,
  isInformationalKind,
  optOutScope,
  stopScopeSettingsFrom,
  type StopScopeSettings,
} from "./stop-scope";
import type { JobQueue } from "~/lib/job-queue";

/** Stands for "state unknown" (decision 060): Florida's rule, 08:00–20:00 every day. */

export type SendDeps = {
  db: Db;
  sms: SmsProvider;
  email: EmailProvider;
  config: MessagingConfig;
  /** The consumer's clock: a batch can wait for its paced slots, so it reads the time more than once. */
  clock: Clock;
  /** The features' say on each message before it goes (a paused campaign holds its messages). */
  hooks: Pick<PipelineHooks, "holdSend" | "finalFailure" | "variables">;
  /** The final-failure hooks' queue (outbound webhooks enqueue their deliveries). */
  queue: JobQueue;
  sleep?: (ms: number) => Promise<void>;
};

// Statements that look rows up by id write `+status`: the unary plus stops SQLite from choosing the status
// index, which with a large backlog (10k `queued`) scans every queued row per batch instead of 50 id lookups.

/** A Worker has 6 simultaneous outbound connections; more only queue inside the runtime. */
export const SEND_CONCURRENCY = 6;
export const MAX_ATTEMPTS = 8;
/** Provider error codes after which the request may or may not have been accepted. */
const AMBIGUOUS = new Set(["network", "timeout"]);
/** A message that waited this long for its slot re-checks the suppression list before it goes. */
const RECHECK_AFTER_MS = 2000;
/** That re-check runs this long before the slot, so its round trip does not make the send late. */
const RECHECK_LEAD_MS = 20;
/** How long before a calling window closes the last marketing text may start (the provider takes it in ~1 s). */
const WINDOW_CLOSE_MARGIN_MS = 5_000;
const LOCAL_ADDRESS_PLACEHOLDER = "Your company's postal address (set COMPANY_ADDRESS)";
const PACING_NOTE = "Waiting for a send slot (sender rate limit)";
/** Deferred messages come back through the cron this long before their expected slot (cron runs each minute). */
const PACING_LEAD_MS = 60_000;
/** Variables can multiply a long body (a 50,000-character email of {{address}} tokens); D1 cannot store it then. */
const RENDERED_TOO_LONG = `Too long once its variables are filled in (over ${D1_VALUE_BUDGET / 1_000_000} MB); shorten the message`;
const DAILY_CAP_NOTE = "Deferred: the sending number reached its daily limit";
/** A batch still sending writes the outcomes it has once the oldest has waited this long (decision 084). */
export const FLUSH_AFTER_MS = 1_000;

type OrNull<T> = { [K in keyof T]: T[K] | null };

/** The consumer's view of a queued message: the row, its contact's current fields (null without a contact), its campaign's name, status and variables. */
export type SendRow = Pick<
  Message,
  | "id"
  | "channel"
  | "kind"
  | "status"
  | "phone"
  | "email"
  | "subject"
  | "content"
  | "attachments"
  | "isMarketing"
  | "attempts"
  | "pacingDeferrals"
  | "contactId"
  | "campaignId"
> &
  OrNull<
    Pick<
      Contact,
      | "firstName"
      | "lastName"
      | "company"
      | "address"
      | "city"
      | "state"
      | "zipCode"
      | "customFields"
      | "timeZone"
      | "sendable"
      | "unsendableReason"
      | "optedOutAt"
      | "optedOutScope"
      | "emailUnsubscribedAt"
      | "consentPurpose"
    >
  > & {
    contactPhone: Contact["phone"] | null;
    contactEmail: Contact["email"];
    campaignName: Campaign["name"] | null;
    suppressed: boolean;
  } & OrNull<Pick<Campaign, "promoCode" | "offerExpiration">> & {
    campaignStatus: Campaign["status"] | null;
    senderFirstName: string | null;
    senderLastName: string | null;
    senderEmail: string | null;
    senderPhone: string | null;
    /** The contact's owner (decision 044): {{salesRep…}} come from them when there is one. */
    ownerFirstName: string | null;
    ownerLastName: string | null;
    ownerEmail: string | null;
    ownerPhone: string | null;
    /** Decision 045: a sender the message already has (an earlier attempt's claim wrote it), kept for its retries. */
    pinnedSender: string | null;
    /** The contact's sticky sender, and whether it is still in use (a user's number; else it must be the default). */
    stickySender: string | null;
    stickyInUse: boolean;
    /** The contact owner's own number. */
    ownerSender: string | null;
    /** The contact's next appointment ({{appointmentDate}} and kin), when there is one. */
    appointmentStartsAt: Date | null;
    appointmentTimeZone: string | null;
    appointmentMeetingLink: string | null;
  };
type Row = SendRow;

/**
 * Which number an SMS goes from (decision 045): the sender its first attempt took; else, for an appointment text, the
 * organisation's informational number when it has one (decision 072: its own 10DLC campaign, which a STOP to the
 * marketing number does not reach); else the contact's sticky sender while that is still one of ours (a rep's number
 * or the default); else the owner's number; else the default. With no rep numbers configured that is always the
 * default, as before.
 */
export function senderFor(
  row: Pick<Row, "kind" | "pinnedSender" | "stickySender" | "stickyInUse" | "ownerSender">,
  fallback: string,
  informational: string | null = null,
) {
  if (row.pinnedSender) return row.pinnedSender;
  if (informational && isInformationalKind(row.kind)) return informational;
  const sticky = row.stickySender && (row.stickyInUse || row.stickySender === fallback) ? row.stickySender : null;
  return sticky || row.ownerSender || fallback;
}

/** The first hold any registered hook gives, or null. */
function holdReason(holds: PipelineHooks["holdSend"], row: Row): string | null {
  for (const hold of holds) {
    const reason = hold(row);
    if (reason) return reason;
  }
  return null;
}

/** INFORMATIONAL_KINDS as a SQL list of constants. */
const informationalKindsSql = sql.raw(`(${INFORMATIONAL_KINDS.map((k) => `'${k}'`).join(", ")})`);

/** The contact's owner, a second join of users (the first is the sender). */
const owners = alias(users, "owner");
/** The contact's next appointment, joined by the id a seek of appointments_contact_idx finds. */
const nextAppointment = alias(appointments, "next_appointment");

/**
 * The batch read: queued rows by id, with contact, campaign and the suppression check. `+status` keeps SQLite
 * on the primary key (see the comment above and query-plans.test.ts). Each row's one value is its SendRow.
 */
export function selectQueuedForSend(db: Db, ids: readonly number[], now: Date = new Date()) {
  return (
    db
      .select({
        // One value per row instead of ~50 (packedColumns: D1 and drizzle each pay per value; decision 080).
        row: packedColumns("row", {
          id: messages.id,
          channel: messages.channel,
          kind: messages.kind,
          status: messages.status,
          phone: messages.phone,
          email: messages.email,
          subject: messages.subject,
          content: messages.content,
          attachments: messages.attachments,
          isMarketing: messages.isMarketing,
          attempts: messages.attempts,
          pacingDeferrals: messages.pacingDeferrals,
          contactId: messages.contactId,
          campaignId: messages.campaignId,
          pinnedSender: messages.fromAddress,
          firstName: orNull(contacts.firstName),
          lastName: orNull(contacts.lastName),
          contactPhone: orNull(contacts.phone),
          contactEmail: orNull(contacts.email),
          company: orNull(contacts.company),
          address: orNull(contacts.address),
          city: orNull(contacts.city),
          state: orNull(contacts.state),
          zipCode: orNull(contacts.zipCode),
          customFields: orNull(contacts.customFields),
          timeZone: orNull(contacts.timeZone),
          sendable: orNull(contacts.sendable),
          unsendableReason: orNull(contacts.unsendableReason),
          optedOutAt: orNull(contacts.optedOutAt),
          optedOutScope: orNull(contacts.optedOutScope),
          emailUnsubscribedAt: orNull(contacts.emailUnsubscribedAt),
          consentPurpose: orNull(contacts.consentPurpose),
          campaignName: orNull(campaigns.name),
          campaignStatus: orNull(campaigns.status),
          promoCode: orNull(campaigns.promoCode),
          offerExpiration: orNull(campaigns.offerExpiration),
          senderFirstName: orNull(users.firstName),
          senderLastName: orNull(users.lastName),
          senderEmail: orNull(users.email),
          senderPhone: orNull(users.phone),
          ownerFirstName: orNull(owners.firstName),
          ownerLastName: orNull(owners.lastName),
          ownerEmail: orNull(owners.email),
          ownerPhone: orNull(owners.phone),
          stickySender: orNull(contacts.smsSender),
          ownerSender: orNull(owners.smsSender),
          appointmentStartsAt: orNull(nextAppointment.startsAt),
          appointmentTimeZone: orNull(nextAppointment.timeZone),
          appointmentMeetingLink: orNull(nextAppointment.meetingLink),
          // A seek of users_sms_sender_uq: the sticky number still belongs to a rep.
          stickyInUse:
            sql<boolean>`EXISTS (SELECT 1 FROM ${users} u WHERE u.sms_sender = ${contacts.smsSender})`.mapWith((v) =>
              Boolean(v),
            ),
          // A marketing-only opt-out (decision 072) leaves appointment texts going.
          suppressed: sql<boolean>`EXISTS (SELECT 1 FROM suppressions s WHERE s.channel = ${messages.channel}
          AND s.address = CASE ${messages.channel} WHEN 'sms' THEN coalesce(${contacts.phone}, ${messages.phone}) ELSE coalesce(${contacts.email}, ${messages.email}) END
          AND (s.scope = 'all' OR ${messages.kind} NOT IN ${informationalKindsSql}))`.mapWith((v) => Boolean(v)),
        }),
      })
      .from(messages)
      .leftJoin(contacts, eq(contacts.id, messages.contactId))
      .leftJoin(campaigns, eq(campaigns.id, messages.campaignId))
      .leftJoin(users, eq(users.id, messages.createdBy))
      // The contact's owner (decision 044): a primary-key seek per row of the same read, never a read per message.
      .leftJoin(owners, eq(owners.id, contacts.ownerUserId))
      // The Appointment variables come from the next booked appointment: one seek per row, usually finding none.
      .leftJoin(
        nextAppointment,
        sql`${nextAppointment.id} = (SELECT a.id FROM ${appointments} a WHERE a.contact_id = ${contacts.id}
          AND a.status IN ('scheduled', 'confirmed') AND a.starts_at >= ${now.getTime()} ORDER BY a.starts_at LIMIT 1)`,
      )
      .where(
        and(
          inArray(messages.id, sql`(SELECT value FROM json_each(${JSON.stringify(ids)}))`),
          sql`+${messages.status} = 'queued'`,
        ),
      )
  );
}

type QueuedRead = Awaited<ReturnType<ReturnType<typeof selectQueuedForSend>["all"]>>[number];

/**
 * The pacing rows of every sender this batch may send from (decision 045), in the batch's one read: the default and
 * each message's candidates (its pinned, sticky and owner number) — primary-key seeks of sender_pacing, driven by
 * the messages' ids, so no row the batch does not touch. A candidate the batch ends up not using costs one seek.
 */
export function selectBatchPacing(db: Db, ids: readonly number[], fallback: string) {
  // The informational number (decision 072) is a candidate too: an org_settings primary-key seek.
  const candidates = sql`(SELECT ${fallback} UNION SELECT value FROM ${orgSettings} WHERE key = ${INFORMATIONAL_SENDER_KEY}
    UNION SELECT j.value FROM ${messages} m
    LEFT JOIN ${contacts} c ON c.id = m.contact_id LEFT JOIN ${users} o ON o.id = c.owner_user_id,
    json_each(json_array(m.from_address, c.sms_sender, o.sms_sender)) j
    WHERE m.id IN (SELECT value FROM json_each(${JSON.stringify(ids)})) AND j.value IS NOT NULL)`;
  return db
    .select({
      sender: senderPacing.sender,
      next_slot_ms: senderPacing.nextSlotMs,
      day: senderPacing.day,
      day_count: senderPacing.dayCount,
      marketing_paused_at: senderPacing.marketingPausedAt,
    })
    .from(senderPacing)
    .where(inArray(senderPacing.sender, candidates));
}

/**
 * When each number this batch may text marketing to was sent a capped text within the window the Florida/Oklahoma cap
 * counts (marketing-cap.ts): in the batch's one read, driven by the batch's own capped SMS ids — a seek of
 * messages_capped_sent_idx per number on (phone, sent_at > since), reading those rows and nothing else. A text another
 * consumer holds in `sending` this very moment is not counted (decision 061).
 */
export function selectRecentMarketing(db: Db, ids: readonly number[], since: number) {
  return db
    .select({ phone: messages.phone, at: sql<number>`${messages.sentAt}`.mapWith(Number) })
    .from(messages)
    .where(
      and(
        inArray(
          messages.phone,
          sql`(SELECT coalesce(c.phone, q.phone) FROM ${messages} q LEFT JOIN ${contacts} c ON c.id = q.contact_id
            WHERE q.id IN (SELECT value FROM json_each(${JSON.stringify(ids)})) AND q.channel = 'sms'
            AND q.kind IN ${CAPPED_KINDS_LIST})`,
        ),
        cappedSentSince(since),
      ),
    );
}

/** One row of the claim write: a claimed message (rendered text) or a decided one (skipped, deferred, failed). */
type ClaimRow = {
  id: number;
  status: Outcome["status"];
  /** 1: claimed by this consumer (rendered text, one more attempt); 0: decided without sending. */
  claim: 0 | 1;
  /** The rendered text, only when rendering changed it (absent: the stored text is what goes out). */
  content?: string;
  subject?: string | null;
  errorMessage?: string | null;
  scheduledAt?: number | null;
  paced?: number;
  /** The SMS's sender (decision 045), kept on the row so a retry or the reconciler uses the same one. */
  from?: string;
};

/**
 * queued → sending (claimed: the rendered text, an attempt) or → the decided outcome, only while still `queued`.
 * One statement per ~1 MB of rows (rendered emails can be 50,000 characters each): run them in one batch().
 */
/** What a claim returns for each row it updated. */
type Claimed = Pick<Message, "id" | "status">;

export function claimStatements(rows: readonly ClaimRow[], t: number) {
  return bulkUpdateStatements(messages, rows, (j) => ({
    set: {
      status: j.status,
      content: sql`coalesce(${j.content}, ${messages.content})`,
      subject: sql`coalesce(${j.subject}, ${messages.subject})`,
      errorMessage: j.errorMessage,
      scheduledAt: sql`coalesce(${j.scheduledAt}, ${messages.scheduledAt})`,
      claimedAt: sql`CASE WHEN ${j.claim} = 1 THEN ${t} ELSE ${messages.claimedAt} END`,
      attempts: sql`${messages.attempts} + ${j.claim}`,
      pacingDeferrals: sql`${messages.pacingDeferrals} + coalesce(${j.paced}, 0)`,
      fromAddress: sql`coalesce(${j.from}, ${messages.fromAddress})`,
      updatedAt: t,
    },
    where: sql`${messages.id} = ${j.id} AND +${messages.status} = 'queued'`,
    returning: sql`${messages.id} AS id, ${messages.status} AS status`,
  }));
}

/** The provider outcomes of a batch, only onto rows this consumer claimed (still `sending`); one batch() for them all. */
export function recordOutcomeStatements(results: readonly Outcome[], t: number) {
  return bulkUpdateStatements(messages, results, (j) => ({
    set: {
      status: j.status,
      twilioSid: sql`coalesce(${j.sid}, ${messages.twilioSid})`,
      provider: sql`coalesce(${j.provider}, ${messages.provider})`,
      fromAddress: sql`coalesce(${j.from}, ${messages.fromAddress})`,
      segments: sql`coalesce(${j.segments}, ${messages.segments})`,
      errorCode: j.errorCode,
      errorMessage: j.errorMessage,
      sentAt: sql`coalesce(${j.sentAt}, ${messages.sentAt})`,
      // A text deferred at its slot (the window closed while it waited) is due again then.
      scheduledAt: sql`coalesce(${j.scheduledAt}, ${messages.scheduledAt})`,
      updatedAt: t,
    },
    where: sql`${messages.id} = ${j.id} AND +${messages.status} = 'sending'`,
  }));
}

/**
 * The sticky sender (decision 045): a contact's first accepted SMS fixes the number later ones go from. One
 * statement for the batch, each contact by primary key, only while it has none.
 */
export function stickySenderStatements(rows: readonly { contactId: number; from: string }[]) {
  return bulkUpdateStatements(contacts, rows, (j) => ({
    set: { smsSender: j.from },
    where: sql`${contacts.id} = ${j.contactId} AND ${contacts.smsSender} IS NULL`,
  }));
}

type Outcome = {
  id: number;
  status: "sent" | "delivered" | "failed" | "skipped" | "pending" | "queued" | "sending" | "held";
  sid?: string;
  provider?: string;
  from?: string;
  segments?: number;
  errorCode?: string | null;
  errorMessage?: string | null;
  scheduledAt?: number;
  sentAt?: number;
  /** 1 when the sender's rate limit sent this message back to wait. */
  paced?: number;
};

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function backoffSeconds(attempts: number) {
  return Math.min(5 * 2 ** Math.max(0, attempts - 1), 900);
}

/** Renders `{{variables}}` and `#PLACEHOLDERS#` with the contact's current data, at send time. */
function render(row: Row, now: Date, org: OrgSettings, provided?: Readonly<Record<string, string>>) {
  const values = variableValues({
    provided,
    contact: row.contactPhone == null ? null : { ...row, email: row.contactEmail, phone: row.contactPhone },
    to: { phone: row.phone, email: row.email },
    sender:
      row.senderEmail == null
        ? null
        : {
            firstName: row.senderFirstName,
            lastName: row.senderLastName,
            email: row.senderEmail,
            phone: row.senderPhone,
          },
    owner:
      row.ownerEmail == null
        ? null
        : { firstName: row.ownerFirstName, lastName: row.ownerLastName, email: row.ownerEmail, phone: row.ownerPhone },
    org,
    campaign: row,
    appointment:
      row.appointmentStartsAt && row.appointmentTimeZone
        ? {
            startsAt: row.appointmentStartsAt,
            timeZone: row.appointmentTimeZone,
            meetingLink: row.appointmentMeetingLink,
          }
        : null,
  });
  const text = renderTemplate(row.content, values, { now, timeZone: row.timeZone ?? undefined }).text;
  const subject = row.subject
    ? renderTemplate(row.subject, values, { now, timeZone: row.timeZone ?? undefined }).text
    : null;
  const contact = {
    firstName: row.firstName ?? "",
    lastName: row.lastName ?? "",
    company: row.company ?? "",
    address: row.address ?? "",
  };
  // #PLACEHOLDERS# become "" when there is no contact (SPEC §5), never go out literally.
  return { text: renderQuickSend(text, contact), subject };
}

const stateOf = (row: Pick<Row, "state" | "zipCode">) => stateForRules(row.state, row.zipCode);

/** The batch's own nextAllowedSendTime (quiet-hours.ts `nextAllowedSendTimes`). */
type NextAllowed = ReturnType<typeof nextAllowedSendTimes>;

/**
 * A state's cap on marketing texts per 24 hours (Florida, Oklahoma; marketing-cap.ts): null when this text may go —
 * it then counts against its number for the rest of the batch — else its deferral to the first moment the cap and
 * the state's window both allow.
 */
function capOutcome(
  row: Row,
  now: Date,
  sentAtsOf: Map<string, number[]>,
  nextAllowedSendTime: NextAllowed,
): Outcome | null {
  if (row.channel !== "sms" || !isCappedKind(row.kind)) return null;
  const state = stateOf(row);
  const rule = stateRuleFor(state);
  if (!rule.per24Hours) return null;
  const to = (row.contactPhone ?? row.phone)!;
  const sentAts = sentAtsOf.get(to) ?? [];
  const next = nextUnderCap(sentAts, rule.per24Hours, now.getTime());
  if (next <= now.getTime()) {
    sentAtsOf.set(to, [...sentAts, now.getTime()]);
    return null;
  }
  const allowed = nextAllowedSendTime(new Date(next), row.timeZone, state);
  return { id: row.id, status: "pending", scheduledAt: allowed.getTime(), errorMessage: capNote(rule) };
}

/** Compliance before anything leaves: opt-outs, unsendable numbers, quiet hours. null = send. */
function complianceOutcome(
  row: Row,
  now: Date,
  ignoreQuietHours: boolean,
  nextAllowedSendTime: NextAllowed,
): Outcome | null {
  // Compliance replies, and staff mail (an unsubscribe applies to marketing mail to contacts, never to alerts).
  const exempt = row.kind === "compliance" || STAFF_MAIL_KINDS.has(row.kind);
  if (row.channel === "sms") {
    if (!exempt && (row.suppressed || (row.optedOutAt && !goesDespiteOptOut(row.kind, row.optedOutScope))))
      return { id: row.id, status: "skipped", errorMessage: OPTED_OUT_REASON };
    const to = row.contactPhone ?? row.phone;
    if (!to) return { id: row.id, status: "skipped", errorMessage: "No phone number" };
    if (row.contactId && row.sendable === false)
      return { id: row.id, status: "skipped", errorMessage: row.unsendableReason ?? "Phone number is not sendable" };
    const check = assessPhone(to);
    if (!check.sendable) return { id: row.id, status: "skipped", errorMessage: check.reason };
    // Consent per purpose (decision 072): appointment-only consent never carries marketing.
    if (row.consentPurpose === "informational" && isCappedKind(row.kind))
      return { id: row.id, status: "skipped", errorMessage: NO_MARKETING_CONSENT_REASON };
  } else {
    if (!exempt && (row.suppressed || row.emailUnsubscribedAt))
      return { id: row.id, status: "skipped", errorMessage: UNSUBSCRIBED_REASON };
    if (!(row.contactEmail ?? row.email)) return { id: row.id, status: "skipped", errorMessage: "No email address" };
  }
  if (row.isMarketing && !ignoreQuietHours) {
    const state = stateOf(row);
    const allowed = nextAllowedSendTime(now, row.timeZone, state);
    if (allowed.getTime() > now.getTime()) {
      return { id: row.id, status: "pending", scheduledAt: allowed.getTime(), errorMessage: quietHoursNote(state) };
    }
  }
  return null;
}

/**
 * The queue consumer for `send` jobs, batch-aware: three D1 round trips per batch — the reads, the claim with the
 * pacing reservation, the result write (two more only when the sender's rate makes some messages wait) — and
 * provider calls concurrently (≤ 6) at their paced slots.
 *
 * Exactly-once towards the provider: a row is sent only by the consumer whose conditional
 * `queued → sending` claim returned it. A redelivered job finds the row no longer `queued` and does nothing;
 * a row left in `sending` (crash after the provider accepted) is reconciled by the cron, never resent blindly.
 */
export async function sendMessages(jobs: SendJob[], deps: SendDeps): Promise<JobOutcomes> {
  const { db, config } = deps;
  const sleep = deps.sleep ?? defaultSleep;
  const now = deps.clock();
  const t = now.getTime();
  // Slots are on the consumer's clock (deps.clock, fixed in tests); waiting runs on the real one. 0 in production.
  const skew = Date.now() - t;
  // Keyed by message id; a message without an entry is done (its job is acked).
  const outcomes: JobOutcomes = new Map();
  const ids = [...new Set(jobs.flatMap(messageIdsOf))];
  const retry = (id: number, seconds: number) => outcomes.set(id, { retryAfterSeconds: Math.ceil(seconds) });
  if (config.publicUrlProblem) {
    await holdForPublicUrl(db, ids, config.publicUrlProblem, t);
    return outcomes;
  }

  // Every read in one round trip: the rows, the organisation's settings ({{company…}} variables) and the sending
  // numbers' pacing states (D1 runs one statement at a time, so parallel reads cost as much as sequential ones).
  const [read, orgRows, pacingRows, recentMarketing] = (await runBatch(db, [
    selectQueuedForSend(db, ids, now),
    selectOrgSettings(db),
    selectBatchPacing(db, ids, deps.sms.sender),
    selectRecentMarketing(db, ids, t - CAP_WINDOW_MS),
  ])) as [
    QueuedRead[],
    OrgSettingRow[],
    (PacingState & { sender: string; marketing_paused_at: Date | null })[],
    { phone: string | null; at: number }[],
  ];
  const rows: Row[] = read.map((r) => r.row);
  const pacingOf = new Map(pacingRows.map((p) => [p.sender, p]));
  const stopScope = stopScopeSettingsFrom(orgRows);
  const senderOf = new Map(rows.map((r) => [r.id, senderFor(r, deps.sms.sender, stopScope.informationalSender)]));
  const org = orgSettingsFrom(orgRows);
  // The local-outbox switch (Message Center): never honoured when a real SMS provider is configured.
  const ignoreQuietHours = deps.sms.name === "outbox" && localIgnoresQuietHours(orgRows);
  // Marketing texts each number got in the last 24 hours, for the Florida/Oklahoma cap (the local switch skips it too).
  const sentAtsOf = new Map<string, number[]>();
  for (const m of recentMarketing) if (m.phone) sentAtsOf.set(m.phone, [...(sentAtsOf.get(m.phone) ?? []), m.at]);

  // 1. Decide: compliance outcomes now, the rest wants sending.
  const nextAllowedSendTime = nextAllowedSendTimes();
  const decided: Outcome[] = [];
  const toSend: Row[] = [];
  for (const row of rows) {
    if (row.attempts >= MAX_ATTEMPTS) {
      decided.push({ id: row.id, status: "failed", errorMessage: `Gave up after ${row.attempts} attempts` });
      continue;
    }
    // A feature may hold a message instead of sending it (a paused campaign's); whoever holds it releases it.
    const hold = holdReason(deps.hooks.holdSend, row);
    if (hold) {
      decided.push({ id: row.id, status: "held", errorMessage: hold });
      continue;
    }
    // Carriers are filtering this number (decision 065): its bulk and automated marketing (the kinds the state caps
    // count) waits, held, until a superuser resumes it; a rep's own texts and appointment texts still go.
    const sender = senderOf.get(row.id)!;
    if (row.channel === "sms" && isCappedKind(row.kind) && pacingOf.get(sender)?.marketing_paused_at) {
      decided.push({ id: row.id, status: "held", errorMessage: senderPausedNote(sender) });
      continue;
    }
    const c =
      complianceOutcome(row, now, ignoreQuietHours, nextAllowedSendTime) ??
      (ignoreQuietHours ? null : capOutcome(row, now, sentAtsOf, nextAllowedSendTime));
    if (c) decided.push(c);
    else toSend.push(row);
  }

  // 2. Pacing per sending number (SMS): each message's own sender (decision 045) has its own rate and daily cap.
  // Messages without a slot in the window retry later, still `queued`.
  const smsRows = toSend.filter((r) => r.channel === "sms");
  const emailRows = toSend.filter((r) => r.channel === "email");
  const slotOf = new Map<number, number>();
  const pacingOpts = {
    now: t,
    ratePerSecond: config.smsRatePerSecond,
    dailyCap: config.smsDailyCap,
    windowMs: config.pacingWindowMs,
  };
  const bySender = new Map<string, Row[]>();
  for (const r of smsRows) {
    const sender = senderOf.get(r.id)!;
    bySender.set(sender, [...(bySender.get(sender) ?? []), r]);
  }
  // Usually every SMS of a sender gets a slot: then its reservation rides in the claim's own batch (step 3), one
  // round trip fewer and never a claimed row without a slot. When some must wait, their place in line is worked
  // out from the reservation's answer first.
  const riding: { sender: string; rows: Row[]; plan: ReturnType<typeof planReservation> }[] = [];
  for (const [sender, group] of bySender) {
    const state = pacingOf.get(sender);
    const plan = planReservation(state, group.length, pacingOpts);
    const reserveWithClaim = plan.want > 0 && plan.deferred === 0;
    if (reserveWithClaim) riding.push({ sender, rows: group, plan });
    let timeOf = new Map<number, number>();
    let nextFreeMs = plan.start;
    if (!reserveWithClaim) {
      const res = await reserveSendSlots(db, sender, group.length, pacingOpts, state ? [state] : []);
      res.slots.forEach((slot, i) => slotOf.set(group[i].id, slot));
      nextFreeMs = res.nextFreeMs;
      // First time back: a place at the end of the sender's line. Already placed once: try again soon, so a
      // message pushed back by other traffic keeps its turn instead of going to the end again.
      const firstTime = group.slice(plan.want, plan.want + plan.deferred).filter((r) => r.pacingDeferrals === 0);
      const times = await projectSlots(db, sender, firstTime.length, {
        now: t,
        ratePerSecond: config.smsRatePerSecond,
        after: nextFreeMs,
      });
      timeOf = new Map(firstTime.map((r, i) => [r.id, times[i]]));
    }
    group.forEach((r, i) => {
      // With the claim: a place-holder until the claim's batch returns the slots.
      if (i < plan.want) {
        if (reserveWithClaim) slotOf.set(r.id, t);
      } else if (i < plan.want + plan.deferred) {
        const expected = timeOf.get(r.id) ?? nextFreeMs;
        decided.push({
          id: r.id,
          status: "pending",
          scheduledAt: Math.max(t, expected - PACING_LEAD_MS),
          errorMessage: PACING_NOTE,
          paced: 1,
        });
      } else decided.push({ id: r.id, status: "pending", scheduledAt: nextUtcDay(t), errorMessage: DAILY_CAP_NOTE });
    });
  }
  emailRows.forEach((r) => slotOf.set(r.id, t));
  const slotted = toSend.filter((r) => slotOf.has(r.id));

  // 3. Claim (queued → sending, with the rendered text) and apply the compliance outcomes, in one write (with the
  // pacing reservation when it rides along). The claim carries a message's text only where rendering changed it,
  // so a long body the same for everyone is not bound once per recipient; what it does carry is split into
  // statements of ~1 MB each (D1 refuses a bound value over 2 MB), all in the same batch: one round trip.
  // Features' computed variables (the Solar ones, decision 074): read only when a message here uses one.
  const provided = await providedVariables(deps.hooks.variables, { db, now }, slotted);
  const rendered = new Map(
    slotted.map((r) => [r.id, render(r, now, org, r.contactId == null ? undefined : provided.get(r.contactId))]),
  );
  const sending: Row[] = [];
  for (const r of slotted) {
    if (storable(rendered.get(r.id)!)) sending.push(r);
    else decided.push({ id: r.id, status: "failed", errorMessage: RENDERED_TOO_LONG });
  }
  const claimRows: ClaimRow[] = [
    ...sending.map((r): ClaimRow => {
      const { text, subject } = rendered.get(r.id)!;
      return {
        id: r.id,
        status: "sending",
        content: text === r.content ? undefined : text,
        subject: subject === r.subject ? undefined : subject,
        claim: 1,
        from: r.channel === "sms" ? senderOf.get(r.id) : undefined,
      };
    }),
    ...decided.map(
      (o): ClaimRow => ({
        id: o.id,
        status: o.status,
        errorMessage: o.errorMessage ?? null,
        scheduledAt: o.scheduledAt ?? null,
        claim: 0,
        paced: o.paced ?? 0,
      }),
    ),
  ];
  const claims = claimRows.length ? claimStatements(claimRows, t).map((q) => db.all<Claimed>(q)) : [];
  let claimed: Claimed[] = [];
  if (riding.length) {
    const answers = (await runBatch(db, [
      ...riding.map((g) => reserveStatement(db, g.sender, g.plan)),
      ...claims,
    ])) as unknown[][];
    riding.forEach((g, k) => {
      const reserved = answers[k] as { next_slot_ms: number }[];
      reservationFrom(g.plan, reserved[0]).slots.forEach((slot, i) => slotOf.set(g.rows[i].id, slot));
    });
    claimed = (answers.slice(riding.length) as Claimed[][]).flat();
  } else if (claims.length) claimed = ((await runBatch(db, claims)) as Claimed[][]).flat();
  const mine = new Set(claimed.filter((c) => c.status === "sending").map((c) => c.id));

  // 4. Send, ≤ SEND_CONCURRENCY at a time, each not before its slot. A tracked text's links go out as its codes
  // (decision 068); the claim stored them as written.
  const claimedAt = Date.now();
  const work = sending.filter((r) => mine.has(r.id)).sort((a, b) => slotOf.get(a.id)! - slotOf.get(b.id)!);
  const wire = await wireTexts(
    work,
    rendered,
    config.linkSecret ? linkBaseFrom(orgRows, config.publicBaseUrl) : null,
    config.linkSecret,
  );
  // 5. Outcomes are written in one transaction after the last send — and, in a batch that sends for longer than
  // FLUSH_AFTER_MS (paced: 100 texts at the default 1/s take 100 s), also while it sends, what has come back so far,
  // one flush at a time (decision 084). The Message Center, the send's progress and the contacts' threads then show
  // texts as sent within a second or two instead of all at the end, a status callback finds its sid written (no
  // backlog row), and a crash leaves only the last seconds' rows `sending` for the reconciler. An unpaced batch (~25 ms)
  // is written once, as before: a flush while it sends costs a round trip its sends do not leave time for (measured).
  // Exactly-once is unchanged: each write lands only on rows still `sending` (this consumer's claim). A write that
  // fails while sending is taken again by the next; the status backlog and the final-failure hooks follow each write.
  const suppressions: BatchItem<"sqlite">[] = [];
  const campaignOf = new Map(work.map((w) => [w.id, w.campaignId]));
  // A contact's first accepted SMS fixes its sticky sender (decision 045).
  const contactOf = new Map(work.map((w) => [w.id, w.channel === "sms" ? w.contactId : null]));
  /** One write: the chunk's outcomes and what goes with them, in one transaction; false when it did not commit. */
  const recordOutcomes = async (chunk: Outcome[], last: boolean, alsoFailed: number[] = []): Promise<boolean> => {
    const sentByCampaign = new Map<number, number>();
    for (const r of chunk) {
      const campaignId = campaignOf.get(r.id);
      if (campaignId && (r.status === "sent" || r.status === "delivered")) {
        sentByCampaign.set(campaignId, (sentByCampaign.get(campaignId) ?? 0) + 1);
      }
    }
    const sids = chunk.flatMap((r) => (r.sid ? [r.sid] : []));
    const sticky = chunk.flatMap((r) => {
      const contactId = contactOf.get(r.id);
      // The informational number is never a contact's sticky sender: a rep's texts go from theirs.
      return contactId &&
        r.from &&
        r.from !== stopScope.informationalSender &&
        (r.status === "sent" || r.status === "delivered")
        ? [{ contactId, from: r.from }]
        : [];
    });
    // Addresses a provider refused as opted out, so far.
    const refused = suppressions.splice(0);
    let written: unknown[];
    try {
      written = await runBatch(db, [
        ...recordOutcomeStatements(chunk, Date.now()).map((q) => db.run(q)),
        ...[...sentByCampaign].map(([id, n]) =>
          db
            .update(campaigns)
            .set({ sentCount: sql`${campaigns.sentCount} + ${n}` })
            .where(eq(campaigns.id, id)),
        ),
        ...refused,
        ...(sticky.length ? stickySenderStatements(sticky).map((q) => db.run(q)) : []),
        // The senders' lateness, once every send of the batch has started.
        ...(last
          ? [...gates].flatMap(([sender, gate]) =>
              gate.resumeAt === null ? [] : [carryLateness(db, sender, gate.resumeAt)],
            )
          : []),
        // Last, in the same round trip: statuses Twilio reported before these sids were written.
        ...(sids.length ? [selectStatusBacklog(db, sids)] : []),
      ]);
    } catch (error) {
      if (last) throw error;
      // Not written: the next write takes it again (the last one fails the batch if it fails too).
      suppressions.unshift(...refused);
      return false;
    }
    // Written: the status backlog and the final-failure hooks for exactly what this write committed. A failure here
    // fails the batch once it is done (as before), never the writes still to come.
    try {
      if (sids.length)
        await applyBacklogRows(db, deps.clock(), written.at(-1) as Parameters<typeof applyBacklogRows>[2], deps);
      await runFinalFailureHooks(deps.hooks.finalFailure, { db, queue: deps.queue, now: deps.clock() }, [
        ...alsoFailed,
        ...chunk.filter((r) => r.status === "failed").map((r) => r.id),
      ]);
    } catch (error) {
      if (last) throw error;
      afterWrite ??= { error };
    }
    return true;
  };
  const pending: Outcome[] = [];
  let oldestPending = 0;
  let flushing = null as Promise<unknown> | null;
  // Set once the sends are over (or one threw): a send still finishing then starts no write of its own.
  let stopped = false;
  let afterWrite = null as { error: unknown } | null;
  const done = (outcome: Outcome) => {
    if (pending.push(outcome) === 1) oldestPending = Date.now();
    if (stopped || flushing || Date.now() - oldestPending < FLUSH_AFTER_MS) return;
    const since = oldestPending;
    const chunk = pending.splice(0);
    flushing = recordOutcomes(chunk, false).then((committed) => {
      flushing = null;
      if (committed) return;
      pending.unshift(...chunk);
      oldestPending = since;
    });
  };

  let next = 0;
  const clock = () => Date.now() - skew;
  // One start gate per sending number: each has its own rate.
  const gates = new Map<string, ReturnType<typeof createSendGate>>();
  const gateFor = (sender: string) => {
    if (!gates.has(sender)) gates.set(sender, createSendGate({ ratePerSecond: config.smsRatePerSecond, clock, sleep }));
    return gates.get(sender)!;
  };
  const worker = async () => {
    while (next < work.length) {
      const row = work[next++];
      const slot = slotOf.get(row.id)!;
      const wait = slot - (row.channel === "sms" ? RECHECK_LEAD_MS : 0) - clock();
      if (wait > 0) await sleep(wait);
      // A STOP may have arrived while this message waited for its paced slot: look again before sending.
      if (
        Date.now() - claimedAt > RECHECK_AFTER_MS &&
        row.kind !== "compliance" &&
        !STAFF_MAIL_KINDS.has(row.kind) &&
        (await suppressedNow(db, row))
      ) {
        done({
          id: row.id,
          status: "skipped",
          errorMessage: row.channel === "sms" ? OPTED_OUT_REASON : UNSUBSCRIBED_REASON,
        });
        continue;
      }
      // The calling window was judged when the batch began; a paced slot can be up to the pacing window later, so a
      // marketing text whose slot (plus the provider's margin) falls past the window's close waits for the next one.
      if (row.isMarketing && !ignoreQuietHours) {
        const at = Math.max(slot, clock()) + WINDOW_CLOSE_MARGIN_MS;
        const state = stateOf(row);
        const allowed = nextAllowedSendTime(new Date(at), row.timeZone, state).getTime();
        if (allowed > at) {
          done({ id: row.id, status: "pending", scheduledAt: allowed, errorMessage: quietHoursNote(state) });
          continue;
        }
      }
      // Not before its slot, nor so soon after the sends before it that a late one bunches up with them.
      const send = () => sendOne(row, senderOf.get(row.id)!, wire.get(row.id)!, deps, suppressions, retry, stopScope);
      done(await (row.channel === "sms" ? gateFor(senderOf.get(row.id)!).run(slot, send) : send()));
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(SEND_CONCURRENCY, work.length) }, worker));
  } finally {
    // Writes go one at a time, in order: the rest waits for the one still running (if any).
    stopped = true;
    while (flushing) await flushing;
  }
  // The last write's hooks also hear of the claim's final failures (it returns each row's new status): an unpaced
  // batch tells them once, as before.
  await recordOutcomes(
    pending.splice(0),
    true,
    claimed.filter((c) => c.status === "failed").map((c) => c.id),
  );
  if (afterWrite) throw afterWrite.error;
  return outcomes;
}

/**
 * Whether the claim can store this rendered text: its claim row must fit one bound value. Measured only when the
 * length could be near that (JSON takes at most 6 bytes per UTF-16 unit, for an escaped control character).
 */
function storable({ text, subject }: { text: string; subject: string | null }) {
  const units = text.length + (subject?.length ?? 0);
  return (
    units * 6 + 200 < D1_VALUE_BUDGET ||
    jsonBytes({ id: Number.MAX_SAFE_INTEGER, status: "sending", content: text, subject, claim: 1 }) + 2 <=
      D1_VALUE_BUDGET
  );
}

/** Held messages come back through the cron this long after (cron runs each minute; each round is one UPDATE per batch). */
export const PUBLIC_URL_HOLD_MS = 5 * 60_000;

/**
 * PUBLIC_BASE_URL cannot be this app's public address while real credentials are present (check-public-url): a send
 * now would carry a status callback Twilio cannot reach and unsubscribe links nobody can open. The batch's queued rows
 * go back to `pending` with the reason, no attempt counted, and return through the cron's dispatch every
 * PUBLIC_URL_HOLD_MS, so they go once the URL is fixed. Queue retries would run out and dead-letter them as failed.
 */
async function holdForPublicUrl(db: Db, ids: readonly number[], problem: string, t: number) {
  const held = await db
    .update(messages)
    .set({
      status: "pending",
      scheduledAt: new Date(t + PUBLIC_URL_HOLD_MS),
      errorMessage: problem,
      updatedAt: new Date(t),
    })
    .where(and(inJson(messages.id, ids), sql`+${messages.status} = 'queued'`))
    .returning({ id: messages.id });
  console.error(`send batch held (${held.length} of ${ids.length} messages back to pending): ${problem}`);
  await recordStatus(
    db,
    "refused:public_url",
    { what: "send", held: held.length, message: problem },
    new Date(t),
  ).catch((e) => console.error("recording the refusal failed", e));
}

async function suppressedNow(db: Db, row: Row) {
  const address = row.channel === "sms" ? (row.contactPhone ?? row.phone) : (row.contactEmail ?? row.email);
  if (!address) return false;
  const found = await db
    .select({ scope: suppressionList.scope })
    .from(suppressionList)
    .where(and(eq(suppressionList.channel, row.channel), eq(suppressionList.address, address)))
    .get();
  return found !== undefined && !goesDespiteOptOut(row.kind, found.scope);
}

function sentOutcome(
  row: Row,
  accepted: SendAccepted,
  provider: string,
  from: string,
  segments: number | undefined,
  now: Date,
): Outcome {
  return {
    id: row.id,
    status: accepted.status === "delivered" ? "delivered" : "sent",
    sid: accepted.sid,
    provider,
    from,
    segments,
    sentAt: now.getTime(),
    errorCode: null,
    errorMessage: null,
  };
}

async function sendOne(
  row: Row,
  /** The SMS's sender (senderFor); unused for email. */
  sender: string,
  content: { text: string; subject: string | null },
  deps: SendDeps,
  suppressions: BatchItem<"sqlite">[],
  retry: (id: number, seconds: number) => void,
  stopScope: StopScopeSettings,
): Promise<Outcome> {
  const now = deps.clock();
  try {
    let accepted: SendAccepted;
    let from: string;
    if (row.channel === "sms") {
      accepted = await deps.sms.send({
        to: (row.contactPhone ?? row.phone)!,
        body: content.text,
        // An MMS (decision 076): each picture by a signed URL Twilio fetches from us (never hot-linked elsewhere).
        mediaUrls: await pictureUrls(row.id, row.attachments, deps.config),
        statusCallback: `${deps.config.publicBaseUrl}/webhooks/twilio/status`,
        messageId: row.id,
        from: sender,
      });
      from = sender;
    } else {
      const to = (row.contactEmail ?? row.email)!;
      if (STAFF_MAIL_KINDS.has(row.kind)) {
        const body = renderStaffEmail(content.text);
        accepted = await deps.email.send({
          to,
          subject: content.subject ?? "",
          text: body.text,
          html: body.html,
          unsubscribeUrl: null,
          messageId: row.id,
        });
        return sentOutcome(row, accepted, deps.email.name, deps.email.sender, undefined, now);
      }
      const companyAddress =
        deps.config.companyAddress ?? (deps.email.name === "outbox" ? LOCAL_ADDRESS_PLACEHOLDER : null);
      if (!companyAddress) {
        return {
          id: row.id,
          status: "failed",
          errorCode: "config",
          errorMessage:
            "COMPANY_ADDRESS is not configured: marketing email must carry the sender's postal address (CAN-SPAM)",
        };
      }
      if (!deps.config.unsubscribeSecret) {
        return {
          id: row.id,
          status: "failed",
          errorCode: "config",
          errorMessage: "UNSUBSCRIBE_SECRET is not configured: marketing email needs a signed unsubscribe link",
        };
      }
      const urls = await unsubscribeUrls(deps.config.publicBaseUrl, deps.config.unsubscribeSecret, to);
      const body = renderEmail(content.text, { unsubscribeUrl: urls.page, companyAddress });
      accepted = await deps.email.send({
        to,
        subject: content.subject ?? "",
        text: body.text,
        html: body.html,
        attachments: row.attachments?.filter((a): a is EmailAttachment => !isPicture(a)) ?? null,
        unsubscribeUrl: urls.oneClick,
        messageId: row.id,
      });
      from = deps.email.sender;
    }
    const provider = row.channel === "sms" ? deps.sms.name : deps.email.name;
    return sentOutcome(
      row,
      accepted,
      provider,
      from,
      row.channel === "sms" ? smsSegments(content.text).segments : undefined,
      now,
    );
  } catch (err) {
    const e = err instanceof ProviderError ? err : new ProviderError("retry", String((err as Error)?.message ?? err));
    // A timeout or dropped connection is ambiguous: the provider may have accepted the message. Never retry
    // blindly. SMS: ask Twilio now; if it does not show the message yet (its list can lag), stay `sending` and
    // let the reconciler ask again after STUCK_SENDING_MS. Email has no lookup: fail rather than send twice.
    if (e.kind === "retry" && AMBIGUOUS.has(e.code ?? "")) {
      if (row.channel === "email") {
        return {
          id: row.id,
          status: "failed",
          errorCode: e.code,
          errorMessage: `Outcome unknown (${e.message}); not resent to avoid a duplicate`,
        };
      }
      const to = (row.contactPhone ?? row.phone)!;
      const found = await deps.sms
        .findSent(to, new Date(now.getTime() - 60_000))
        .then((list) => list.find((m) => m.body === content.text))
        .catch(() => undefined);
      if (found) {
        return {
          id: row.id,
          status: "sent",
          sid: found.sid,
          provider: deps.sms.name,
          from: sender,
          segments: smsSegments(content.text).segments,
          sentAt: now.getTime(),
          errorCode: null,
          errorMessage: null,
        };
      }
      return {
        id: row.id,
        status: "sending",
        errorCode: e.code,
        errorMessage: `Outcome unknown (${e.message}); checking with the provider`,
      };
    }
    if (e.kind === "retry" && row.attempts + 1 < MAX_ATTEMPTS) {
      retry(row.id, e.retryAfterSeconds ?? backoffSeconds(row.attempts + 1));
      return { id: row.id, status: "queued", errorCode: e.code, errorMessage: e.message };
    }
    if (e.optedOut) {
      const address = row.channel === "sms" ? (row.contactPhone ?? row.phone)! : (row.contactEmail ?? row.email)!;
      // The carrier blocks the number it refused from: with a separate informational number, per purpose, that is
      // the marketing one's opt-out only (decision 072).
      const scope = row.channel === "sms" ? optOutScope(stopScope, sender, now) : "all";
      suppressions.push(
        ...suppressStatements(
          deps.db,
          { channel: row.channel, address, reason: `provider:${e.code ?? "opted-out"}`, scope },
          now,
        ),
      );
    }
    return { id: row.id, status: "failed", errorCode: e.code, errorMessage: e.message };
  }
}
