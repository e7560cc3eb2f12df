import { desc, eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { contacts, conversationNotes, noteMentions } from "~/db/schema";
import { conversationPathOf } from "~/lib/conversation-path";
import { author, AUTHOR_COLUMNS, authorName } from "./list-thread-notes.server";
import { MENTIONS_SHOWN } from "./mentions";

/**
 * The notes that mention this user, newest first (decision 047): one seek of note_mentions' key (user_id, note_id),
 * then each note, its author and its contact by primary key. Bounded: the latest MENTIONS_SHOWN.
 */
export async function listMentions(db: Db, userId: number) {
  const rows = await selectMentions(db, userId);
  return rows.map((r) => ({
    id: r.id,
    body: r.body,
    createdAt: r.createdAt.toISOString(),
    conversation:
      r.contactId !== null ? `${r.firstName ?? ""} ${r.lastName ?? ""}`.trim() || `Contact ${r.contactId}` : r.phone,
    path: conversationPathOf(r),
    author: authorName(r),
  }));
}

/** The statement listMentions runs (exported for the query-plan test). */
export function selectMentions(db: Db, userId: number) {
  return db
    .select({
      id: conversationNotes.id,
      body: conversationNotes.body,
      createdAt: conversationNotes.createdAt,
      contactId: conversationNotes.contactId,
      phone: conversationNotes.phone,
      firstName: contacts.firstName,
      lastName: contacts.lastName,
      ...AUTHOR_COLUMNS,
    })
    .from(noteMentions)
    .innerJoin(conversationNotes, eq(conversationNotes.id, noteMentions.noteId))
    .leftJoin(contacts, eq(contacts.id, conversationNotes.contactId))
    .leftJoin(author, eq(author.id, conversationNotes.authorUserId))
    .where(eq(noteMentions.userId, userId))
    .orderBy(desc(noteMentions.noteId))
    .limit(MENTIONS_SHOWN);
}
