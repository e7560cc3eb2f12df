import { sql } from "drizzle-orm";
import type { Db } from "~/db/client.server";

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
  const rows = await db.all<{
    id: number;
    last_message_id: number;
    contact_id: number | null;
    first_name: string | null;
    last_name: string | null;
    phone: string | null;
    email: string | null;
    last_message_at: number;
    last_direction: "inbound" | "outbound";
    last_preview: string;
    needs_reply: number;
    opted_out_at: number | null;
  }>(sql`SELECT v.id, v.last_message_id, v.contact_id, c.first_name, c.last_name, coalesce(c.phone, v.phone) AS phone, coalesce(c.email, v.email) AS email,
      v.last_message_at, v.last_direction, v.last_preview, v.needs_reply, c.opted_out_at
    FROM conversations v LEFT JOIN contacts c ON c.id = v.contact_id
    WHERE 1 ${cursor ? sql`AND (v.last_message_at < ${cursor.at} OR (v.last_message_at = ${cursor.at} AND v.last_message_id < ${cursor.id}))` : sql``}
      ${opts.needsReply ? sql`AND v.needs_reply = 1` : sql``}
    ORDER BY v.last_message_at DESC, v.last_message_id DESC LIMIT ${limit + 1}`);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    conversations: page.map(
      (r): ConversationListItem => ({
        id: r.id,
        contactId: r.contact_id,
        contactName: r.first_name != null ? `${r.first_name} ${r.last_name ?? ""}`.trim() : null,
        phone: r.phone,
        email: r.email,
        lastMessageAt: new Date(r.last_message_at).toISOString(),
        lastDirection: r.last_direction,
        lastPreview: r.last_preview,
        needsReply: r.needs_reply === 1,
        optedOut: r.opted_out_at != null,
      }),
    ),
    nextCursor: rows.length > limit && last ? `${last.last_message_at}-${last.last_message_id}` : null,
  };
}
