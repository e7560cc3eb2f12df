import { desc } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { pageLimit, splitPage, underParentAfter } from "~/db/page-newest-first.server";
import { messages } from "~/db/schema";
import { AppError } from "~/lib/app-error";
import { pendingPreview } from "~/message-center/list-messages.server";
import { previewContact, THREAD_COLUMNS } from "./get-conversation.server";
import { loadContactScope, scopeCondition, type ContactViewer } from "~/contacts/contact-scope.server";

export const CONTACT_MESSAGES_PAGE = 50;
export const MAX_CONTACT_MESSAGES_PAGE = 200;
const WAITING = new Set(["pending", "queued", "sending", "held"]);

/** The statement of one page (exported so query-plans.test.ts checks the plan of the query that runs). */
export function contactMessagesPage(db: Db, contactId: number, opts: { after?: number | null; limit: number }) {
  return db
    .select({
      ...THREAD_COLUMNS,
      campaignId: messages.campaignId,
      phone: messages.phone,
      email: messages.email,
      segments: messages.segments,
      errorCode: messages.errorCode,
      sentAt: messages.sentAt,
      deliveredAt: messages.deliveredAt,
    })
    .from(messages)
    .where(underParentAfter(messages.contactId, contactId, messages.id, opts.after))
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
  viewer: ContactViewer,
  opts: { after?: number | null; limit?: number } = {},
) {
  // Outside the viewer's scope is the same 404 as no such contact (decision 048).
  const contact = await previewContact(db, contactId, scopeCondition(await loadContactScope(db, viewer)));
  if (!contact) throw new AppError("not_found", "Contact not found");
  const limit = pageLimit(opts.limit, { page: CONTACT_MESSAGES_PAGE, max: MAX_CONTACT_MESSAGES_PAGE });
  const rows = await contactMessagesPage(db, contactId, { after: opts.after, limit });
  const { page, nextCursor } = splitPage(rows, limit, (m) => m.id);
  return {
    messages: page.map((m) => ({
      ...m,
      content: WAITING.has(m.status) && m.direction === "outbound" ? pendingPreview(m.content, contact) : m.content,
      createdAt: m.createdAt.toISOString(),
      sentAt: m.sentAt?.toISOString() ?? null,
      deliveredAt: m.deliveredAt?.toISOString() ?? null,
    })),
    nextCursor,
  };
}
