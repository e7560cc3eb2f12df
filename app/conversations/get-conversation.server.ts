import { and, desc, eq, isNull, lt, sql, type SQL } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import {
  campaignEnrollments,
  campaigns,
  contacts,
  messageMedia,
  messages,
  suppressions,
  type MediaStatus,
} from "~/db/schema";
import { inJson } from "~/db/bulk-update.server";
import { pendingPreview } from "~/message-center/list-messages.server";
import { listThreadNotes, type ThreadNote } from "./list-thread-notes.server";
import { AppError } from "~/lib/app-error";
import { inScope, loadContactScope, type ContactViewer } from "~/contacts/contact-scope.server";

export const THREAD_PAGE = 30;
type EnrollmentStatus = (typeof campaignEnrollments.$inferSelect)["status"];

/** What a thread shows of each message (the API's list of a contact's messages adds to it). */
export const THREAD_COLUMNS = {
  id: messages.id,
  channel: messages.channel,
  direction: messages.direction,
  kind: messages.kind,
  status: messages.status,
  subject: messages.subject,
  content: messages.content,
  errorMessage: messages.errorMessage,
  createdAt: messages.createdAt,
};
const WAITING = new Set(["pending", "queued", "sending", "held"]);

export type ThreadMessage = {
  id: number;
  channel: "sms" | "email";
  direction: "inbound" | "outbound";
  kind: string;
  status: string;
  subject: string | null;
  content: string;
  errorMessage: string | null;
  createdAt: string;
  /** A reply waiting for a later time ("send later", or deferred by quiet hours): when it goes. */
  scheduledFor: string | null;
  /** A person's conversation send still pending: the thread offers Cancel (cancelScheduledReply's rule). */
  cancellable: boolean;
  /** An inbound MMS's files (decision 057): shown from /media/:id once stored, else why not (yet). */
  media: ThreadMedia[];
};
export type ThreadMedia = { id: number; contentType: string; status: MediaStatus; error: string | null };

/** The kinds a rep may cancel from the thread while pending: the conversation's own sends, never a campaign's. */
export const CANCELLABLE_KINDS = ["individual", "reply"] as const;

/**
 * One conversation's messages, oldest → newest on screen, keyset-paged by id: the first page is the newest
 * THREAD_PAGE messages, `before` (the oldest id shown) fetches the earlier ones. A contact's thread walks
 * messages_contact_thread_idx; a bare number's walks messages_phone_thread_idx (messages with no contact).
 */
export async function getThread(db: Db, who: ThreadOwner, opts: ThreadOpts = {}) {
  return threadFrom(db, who, await selectThreadRows(db, who, opts), opts);
}

type ThreadOwner = { contactId: number } | { phone: string };
type ThreadOpts = { before?: number | null; limit?: number };
const threadLimit = (opts: ThreadOpts) => Math.min(Math.max(opts.limit ?? THREAD_PAGE, 1), 200);

/** The thread page's messages (one more than a page, newest first): a builder, to ride in a page's batch. */
export function selectThreadRows(db: Db, who: ThreadOwner, opts: ThreadOpts = {}) {
  const where =
    "contactId" in who
      ? eq(messages.contactId, who.contactId)
      : and(eq(messages.phone, who.phone), isNull(messages.contactId));
  return db
    .select({
      ...THREAD_COLUMNS,
      scheduledAt: messages.scheduledAt,
      // A picture we sent (MMS, decision 076): read from the row already read, so a text-only page reads no media.
      sentPicture: sql<number>`json_extract(${messages.attachments}, '$[0].r2Key') IS NOT NULL`,
    })
    .from(messages)
    .where(and(where, opts.before ? lt(messages.id, opts.before) : undefined))
    .orderBy(desc(messages.id))
    .limit(threadLimit(opts) + 1);
}

/** The thread from its rows: the waiting rows' previews, the notes of its span and its inbound files. */
export async function threadFrom(
  db: Db,
  who: ThreadOwner,
  rows: Awaited<ReturnType<typeof selectThreadRows>>,
  opts: ThreadOpts = {},
) {
  const limit = threadLimit(opts);
  const page = rows.slice(0, limit).reverse();
  // A waiting bulk row holds its template until it is sent: show what the contact will read (issue 24, item 12).
  const waiting = (r: (typeof rows)[number]) =>
    WAITING.has(r.status) && r.direction === "outbound" && r.content.includes("{{");
  if ("contactId" in who && page.some(waiting)) {
    const contact = await previewContact(db, who.contactId);
    if (contact) for (const r of page) if (waiting(r)) r.content = pendingPreview(r.content, contact);
  }
  // The notes written in this page's span: from its oldest message (none when it is the start) to the next page's.
  const newer = opts.before
    ? await db.select({ at: messages.createdAt }).from(messages).where(eq(messages.id, opts.before)).get()
    : undefined;
  const notes: ThreadNote[] = await listThreadNotes(db, who, {
    from: rows.length > limit ? page[0].createdAt : null,
    to: newer?.at ?? null,
  });
  // The page's files, by message (message_media_message_uq): a lead's, and the pictures we sent; none read when no
  // message of the page has any.
  const inboundIds = page.filter((r) => r.direction === "inbound" || r.sentPicture).map((r) => r.id);
  const mediaOf = new Map<number, ThreadMedia[]>();
  if (inboundIds.length) {
    const media = await db
      .select({
        id: messageMedia.id,
        messageId: messageMedia.messageId,
        contentType: messageMedia.contentType,
        status: messageMedia.status,
        error: messageMedia.error,
      })
      .from(messageMedia)
      .where(inJson(messageMedia.messageId, inboundIds))
      .orderBy(messageMedia.messageId, messageMedia.position);
    for (const { messageId, ...m } of media) mediaOf.set(messageId, [...(mediaOf.get(messageId) ?? []), m]);
  }
  return {
    notes,
    messages: page.map(
      (r): ThreadMessage => ({
        id: r.id,
        channel: r.channel,
        direction: r.direction,
        kind: r.kind,
        status: r.status,
        subject: r.subject,
        content: r.content,
        errorMessage: r.errorMessage,
        createdAt: r.createdAt.toISOString(),
        scheduledFor:
          r.status === "pending" && r.direction === "outbound" && r.scheduledAt && r.scheduledAt > r.createdAt
            ? r.scheduledAt.toISOString()
            : null,
        cancellable:
          r.status === "pending" &&
          r.direction === "outbound" &&
          (CANCELLABLE_KINDS as readonly string[]).includes(r.kind),
        media: mediaOf.get(r.id) ?? [],
      }),
    ),
    /** The id to pass as `before` for the earlier page, or null at the start of the conversation. */
    earlierCursor: rows.length > limit ? page[0].id : null,
  };
}

/** A contact's fields a waiting bulk row's preview fills in (pendingPreview's row shape), or undefined (`scope`: decision 048). */
export function previewContact(db: Db, contactId: number, scope?: SQL) {
  return db
    .select({
      first_name: contacts.firstName,
      last_name: contacts.lastName,
      contact_email: contacts.email,
      contact_phone: contacts.phone,
      company: contacts.company,
      address: contacts.address,
      city: contacts.city,
      state: contacts.state,
      zip_code: contacts.zipCode,
      custom_fields: contacts.customFields,
    })
    .from(contacts)
    .where(and(eq(contacts.id, contactId), scope))
    .get();
}

/**
 * The campaigns a contact is enrolled in, newest first (bounded: a contact is in a handful). The enrolment's status
 * under a name of its own: D1's batch() returns rows as objects, where two "status" columns would be one.
 */
export function contactCampaigns(db: Db, contactId: number) {
  return db
    .select({
      id: campaigns.id,
      name: campaigns.name,
      status: campaigns.status,
      enrollmentStatus: sql<EnrollmentStatus>`${campaignEnrollments.status}`.as("enrollment_status"),
    })
    .from(campaignEnrollments)
    .innerJoin(campaigns, eq(campaigns.id, campaignEnrollments.campaignId))
    .where(eq(campaignEnrollments.contactId, contactId))
    .orderBy(desc(campaignEnrollments.id))
    .limit(50);
}

/** Whether a bare number has opted out (the suppression list); a contact's own state is on the contact row. */
export async function phoneOptedOut(db: Db, phone: string) {
  return Boolean(
    await db
      .select({ id: suppressions.id })
      .from(suppressions)
      .where(and(eq(suppressions.channel, "sms"), eq(suppressions.address, phone)))
      .get(),
  );
}

/**
 * The contact a number belongs to (whose page is its conversation), or null for a bare number (no owner: everyone's).
 * A contact outside the viewer's scope is not found, as if there were no such conversation (decision 048).
 */
export async function contactOfPhone(db: Db, phone: string, viewer: ContactViewer): Promise<number | null> {
  const c = await db
    .select({ id: contacts.id, ownerUserId: contacts.ownerUserId })
    .from(contacts)
    .where(eq(contacts.phone, phone))
    .get();
  if (!c) return null;
  if (!inScope(await loadContactScope(db, viewer), c)) throw new AppError("not_found", "Conversation not found");
  return c.id;
}
