import { and, desc, eq, lt } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { contacts, messages } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { pendingPreview } from "~/message-center/list-messages.server";

export const CONTACT_MESSAGES_PAGE = 50;
export const MAX_CONTACT_MESSAGES_PAGE = 200;
const WAITING = new Set(["pending", "queued", "sending", "held"]);

/** The statement of one page (exported so query-plans.test.ts checks the plan of the query that runs). */
export function contactMessagesPage(db: Db, contactId: number, opts: { after?: number | null; limit: number }) {
  return db
    .select({
      id: messages.id,
      channel: messages.channel,
      direction: messages.direction,
      kind: messages.kind,
      status: messages.status,
      campaignId: messages.campaignId,
      phone: messages.phone,
      email: messages.email,
      subject: messages.subject,
      content: messages.content,
      segments: messages.segments,
      errorCode: messages.errorCode,
      errorMessage: messages.errorMessage,
      createdAt: messages.createdAt,
      sentAt: messages.sentAt,
      deliveredAt: messages.deliveredAt,
    })
    .from(messages)
    .where(and(eq(messages.contactId, contactId), opts.after ? lt(messages.id, opts.after) : undefined))
    .orderBy(desc(messages.id))
    .limit(opts.limit + 1);
}

/**
 * A contact's messages, both directions, newest first, keyset-paged on the id (`after` = the last id seen): a seek
 * in messages_contact_thread_idx (contact_id, id) per page, however long the history. A waiting bulk row shows what
 * the contact will read (its variables filled), as the conversation screen does.
 */
export async function listContactMessages(
  db: Db,
  contactId: number,
  opts: { after?: number | null; limit?: number } = {},
) {
  const contact = await db
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
  if (!contact) throw new AppError("not_found", "Contact not found");
  const limit = Math.min(Math.max(opts.limit ?? CONTACT_MESSAGES_PAGE, 1), MAX_CONTACT_MESSAGES_PAGE);
  const rows = await contactMessagesPage(db, contactId, { after: opts.after, limit });
  const page = rows.slice(0, limit);
  return {
    messages: page.map((m) => ({
      ...m,
      content: WAITING.has(m.status) && m.direction === "outbound" ? pendingPreview(m.content, contact) : m.content,
      createdAt: m.createdAt.toISOString(),
      sentAt: m.sentAt?.toISOString() ?? null,
      deliveredAt: m.deliveredAt?.toISOString() ?? null,
    })),
    nextCursor: rows.length > limit ? page[limit - 1].id : null,
  };
}
