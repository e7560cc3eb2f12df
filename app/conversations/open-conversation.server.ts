import { eq, lt } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { conversationReads, conversations } from "~/db/schema";

/** The conversations row of a contact's thread or of a bare number's (the key the messages trigger writes). */
export function conversationKey(who: { contactId: number } | { phone: string }) {
  return "contactId" in who ? `c:${who.contactId}` : `p:${who.phone}`;
}

export type ConversationQueueState = {
  id: number;
  state: "open" | "snoozed" | "closed";
  snoozedUntil: string | null;
};

/**
 * A user opens a conversation (decision 046): it is read for them up to its latest message (one upsert on their
 * conversation_reads key; a marker only moves forward), and the screen gets its queue state for the close / snooze /
 * reopen forms. null: no message yet, so nothing to queue.
 */
export async function openConversation(
  db: Db,
  userId: number,
  who: { contactId: number } | { phone: string },
  now: Date,
): Promise<ConversationQueueState | null> {
  return markConversationOpened(db, userId, (await selectConversationRow(db, who))[0] ?? null, now);
}

/** The conversation's queue row (at most one): a builder, to ride in a page's batch. */
export function selectConversationRow(db: Db, who: { contactId: number } | { phone: string }) {
  return db
    .select({
      id: conversations.id,
      status: conversations.status,
      snoozedUntil: conversations.snoozedUntil,
      lastMessageId: conversations.lastMessageId,
    })
    .from(conversations)
    .where(eq(conversations.key, conversationKey(who)))
    .limit(1);
}

/** The user has read the conversation up to its latest message; its queue state for the screen (null: none yet). */
export async function markConversationOpened(
  db: Db,
  userId: number,
  row: Awaited<ReturnType<typeof selectConversationRow>>[number] | null,
  now: Date,
): Promise<ConversationQueueState | null> {
  if (!row) return null;
  await db
    .insert(conversationReads)
    .values({ userId, conversationId: row.id, readMessageId: row.lastMessageId })
    .onConflictDoUpdate({
      target: [conversationReads.userId, conversationReads.conversationId],
      set: { readMessageId: row.lastMessageId },
      setWhere: lt(conversationReads.readMessageId, row.lastMessageId),
    });
  const snoozed = row.status === "open" && row.snoozedUntil && row.snoozedUntil.getTime() > now.getTime();
  return {
    id: row.id,
    state: row.status === "closed" ? "closed" : snoozed ? "snoozed" : "open",
    snoozedUntil: snoozed ? row.snoozedUntil!.toISOString() : null,
  };
}
