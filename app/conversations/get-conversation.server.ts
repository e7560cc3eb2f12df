import { and, desc, eq, isNull, lt } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { campaignEnrollments, campaigns, contacts, messages, suppressions } from "~/db/schema";
import { pendingPreview } from "~/message-center/list-messages.server";

export const THREAD_PAGE = 30;

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
};

/**
 * One conversation's messages, oldest → newest on screen, keyset-paged by id: the first page is the newest
 * THREAD_PAGE messages, `before` (the oldest id shown) fetches the earlier ones. A contact's thread walks
 * messages_contact_thread_idx; a bare number's walks messages_phone_thread_idx (messages with no contact).
 */
export async function getThread(
  db: Db,
  who: { contactId: number } | { phone: string },
  opts: { before?: number | null; limit?: number } = {},
) {
  const limit = Math.min(Math.max(opts.limit ?? THREAD_PAGE, 1), 200);
  const where =
    "contactId" in who
      ? eq(messages.contactId, who.contactId)
      : and(eq(messages.phone, who.phone), isNull(messages.contactId));
  const rows = await db
    .select(THREAD_COLUMNS)
    .from(messages)
    .where(and(where, opts.before ? lt(messages.id, opts.before) : undefined))
    .orderBy(desc(messages.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit).reverse();
  // A waiting bulk row holds its template until it is sent: show what the contact will read (issue 24, item 12).
  const waiting = (r: (typeof rows)[number]) =>
    WAITING.has(r.status) && r.direction === "outbound" && r.content.includes("{{");
  if ("contactId" in who && page.some(waiting)) {
    const contact = await previewContact(db, who.contactId);
    if (contact) for (const r of page) if (waiting(r)) r.content = pendingPreview(r.content, contact);
  }
  return {
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
      }),
    ),
    /** The id to pass as `before` for the earlier page, or null at the start of the conversation. */
    earlierCursor: rows.length > limit ? page[0].id : null,
  };
}

/** A contact's fields a waiting bulk row's preview fills in (pendingPreview's row shape), or undefined. */
export function previewContact(db: Db, contactId: number) {
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
    .where(eq(contacts.id, contactId))
    .get();
}

/** The campaigns a contact is enrolled in, newest first (bounded: a contact is in a handful). */
export async function contactCampaigns(db: Db, contactId: number) {
  return db
    .select({
      id: campaigns.id,
      name: campaigns.name,
      status: campaigns.status,
      enrollmentStatus: campaignEnrollments.status,
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
