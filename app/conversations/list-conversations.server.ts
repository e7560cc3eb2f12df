import { and, desc, eq, lt, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "~/db/client.server";
import { contacts, conversations } from "~/db/schema";

const v = alias(conversations, "v");
const c = alias(contacts, "c");

export const CONVERSATIONS_PAGE = 25;

export type ConversationListItem = {
  id: number;
  contactId: number | null;
  contactName: string | null;
  phone: string | null;
  email: string | null;
  lastMessageAt: string;
  lastDirection: "inbound" | "outbound";
  lastPreview: string;
  needsReply: boolean;
  optedOut: boolean;
};

/** "1732456789000-42": the (last_message_at, last_message_id) of the last row shown; anything else reads as the first page. */
export function parseConversationCursor(v: string | null | undefined): { at: number; id: number } | null {
  const m = /^(\d{1,15})-(\d{1,15})$/.exec(v ?? "");
  return m ? { at: Number(m[1]), id: Number(m[2]) } : null;
}

/**
 * Newest activity first, keyset-paged on (last_message_at, last_message_id) through conversations_recent_idx: one
 * index walk of a page, whatever the number of messages. Ties (a broadcast writes its messages in one millisecond)
 * go by the newest message, not by the age of the conversation row. `needsReply` marks a conversation whose latest message is inbound.
 */
export async function listConversations(
  db: Db,
  opts: { after?: string | null; needsReply?: boolean; limit?: number } = {},
) {
  const limit = Math.min(Math.max(opts.limit ?? CONVERSATIONS_PAGE, 1), 100);
  const cursor = parseConversationCursor(opts.after);
  const at = cursor && new Date(cursor.at);
  const rows = await db
    .select({
      id: v.id,
      lastMessageId: v.lastMessageId,
      contactId: v.contactId,
      firstName: c.firstName,
      lastName: c.lastName,
      phone: sql<string | null>`coalesce(${c.phone}, ${v.phone})`,
      email: sql<string | null>`coalesce(${c.email}, ${v.email})`,
      lastMessageAt: v.lastMessageAt,
      lastDirection: v.lastDirection,
      lastPreview: v.lastPreview,
      needsReply: v.needsReply,
      optedOutAt: c.optedOutAt,
    })
    .from(v)
    .leftJoin(c, eq(c.id, v.contactId))
    .where(
      and(
        cursor && at
          ? or(lt(v.lastMessageAt, at), and(eq(v.lastMessageAt, at), lt(v.lastMessageId, cursor.id)))
          : undefined,
        opts.needsReply ? sql`${v.needsReply} = 1` : undefined,
      ),
    )
    .orderBy(desc(v.lastMessageAt), desc(v.lastMessageId))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    conversations: page.map(
      (r): ConversationListItem => ({
        id: r.id,
        contactId: r.contactId,
        contactName: r.firstName != null ? `${r.firstName} ${r.lastName ?? ""}`.trim() : null,
        phone: r.phone,
        email: r.email,
        lastMessageAt: r.lastMessageAt.toISOString(),
        lastDirection: r.lastDirection,
        lastPreview: r.lastPreview,
        needsReply: r.needsReply,
        optedOut: r.optedOutAt != null,
      }),
    ),
    nextCursor: rows.length > limit && last ? `${last.lastMessageAt.getTime()}-${last.lastMessageId}` : null,
  };
}
