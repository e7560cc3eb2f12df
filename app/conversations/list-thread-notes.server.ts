import { and, desc, eq, gte, isNull, lt } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import type { Db } from "~/db/client.server";
import { conversationNotes, users } from "~/db/schema";
import type { NoteTarget } from "./add-conversation-note.server";

/** Notes a thread page shows at most (a page is 30 messages; a busier note stream pages with them by time). */
export const NOTES_PER_PAGE = 100;

export type ThreadNote = {
  id: number;
  kind: "note" | "handoff";
  body: string;
  author: string | null;
  handoffTo: string | null;
  createdAt: string;
};

/** A note's author (a left join by primary key): its columns and the name shown. */
export const author = alias(users, "author");
export const AUTHOR_COLUMNS = { authorFirst: author.firstName, authorLast: author.lastName, authorEmail: author.email };
export const authorName = (r: { authorFirst: string | null; authorLast: string | null; authorEmail: string | null }) =>
  nameOf({ firstName: r.authorFirst, lastName: r.authorLast, email: r.authorEmail });
const handoff = alias(users, "handoff");
const nameOf = (u: { firstName: string | null; lastName: string | null; email: string | null }) =>
  u.email === null ? null : `${u.firstName ?? ""} ${u.lastName ?? ""}`.trim() || u.email;

/**
 * A conversation's internal notes written in [from, to) — the time span of the thread page beside them (decision
 * 047) — the newest NOTES_PER_PAGE of them, oldest first. One seek of conversation_notes_contact_idx (or _phone_idx), the two names by primary key.
 */
export async function listThreadNotes(db: Db, who: NoteTarget, span: { from?: Date | null; to?: Date | null }) {
  const rows = await selectThreadNotes(db, who, span);
  return rows.reverse().map(
    (r): ThreadNote => ({
      id: r.id,
      kind: r.kind,
      body: r.body,
      author: authorName(r),
      handoffTo: nameOf({ firstName: r.toFirst, lastName: r.toLast, email: r.toEmail }),
      createdAt: r.createdAt.toISOString(),
    }),
  );
}

/** The statement listThreadNotes runs, newest first (exported for the query-plan test). */
export function selectThreadNotes(db: Db, who: NoteTarget, span: { from?: Date | null; to?: Date | null }) {
  return db
    .select({
      id: conversationNotes.id,
      kind: conversationNotes.kind,
      body: conversationNotes.body,
      createdAt: conversationNotes.createdAt,
      ...AUTHOR_COLUMNS,
      toFirst: handoff.firstName,
      toLast: handoff.lastName,
      toEmail: handoff.email,
    })
    .from(conversationNotes)
    .leftJoin(author, eq(author.id, conversationNotes.authorUserId))
    .leftJoin(handoff, eq(handoff.id, conversationNotes.handoffTo))
    .where(
      and(
        "contactId" in who
          ? eq(conversationNotes.contactId, who.contactId)
          : and(eq(conversationNotes.phone, who.phone), isNull(conversationNotes.contactId)),
        span.from ? gte(conversationNotes.createdAt, span.from) : undefined,
        span.to ? lt(conversationNotes.createdAt, span.to) : undefined,
      ),
    )
    .orderBy(desc(conversationNotes.createdAt))
    .limit(NOTES_PER_PAGE);
}
